// The ground-floor owner of a repository's proctor state: where the repository is, where `.proctor/` and a
// session's directory are (layout.ts), and the checkpoint store and push queue of a session, opened with
// the config and policy already wired. Every entry point that touches a session's checkpoints goes through
// here — the session itself, the action's post step, `proctor checkpoints`, restore and the pre-push hook —
// so a store or a queue is wired one way. See docs/architecture.md ("Who owns a session's state").
// The push queue's, the history's and the diff's code are loaded by the methods that use them: the
// one-shot `proctor checkpoints create` opens a store through here and nothing else (its chunk is its
// whole cost, rollup.config.mjs).
import type { Config } from '../config/schema.js'
import type { PushRecord, Violation } from '../report/model.js'
import { Git, type GitRunnerOptions } from '../git/runner.js'
import { CheckpointStore, type CheckpointStoreOptions } from '../checkpoints/store.js'
import type { PushMode, PushQueue } from '../checkpoints/push.js'
import { ensureStateDir, findRepoRoot, sessionDir, sessionPath, type StateDirs } from './layout.js'

/** What a store may be opened with besides the config's settings (the session's own hooks, a CLI index). */
export type StoreExtras = Partial<Omit<CheckpointStoreOptions, 'git' | 'session'>> & {
  /** Judge every checkpoint by config.policy (the Proctor-Violations trailer); default off. */
  judge?: boolean
}

export interface QueueOptions {
  /** The session's base commit (default: the base of its first checkpoint). */
  base?: string | null
  /** Default config.checkpoints.push. */
  mode?: PushMode
  /** Default config.checkpoints.remote. */
  remote?: string
  /** proctor's credential for this push only (tokenHeaderConfig); never in .git/config. */
  secretConfig?: readonly [string, string][]
  /** Where to push, fixed from trusted state (PushQueueOptions.remoteUrl); default: the remote's URL at start. */
  remoteUrl?: string
  /** The checkpoint proctor wrote last: the queue then pushes only what it is handed (PushQueueOptions.written). */
  written?: string | null
  /** The session's baseline, CI's definition as the user left it (PushQueueOptions.baseline). */
  baseline?: string | null
}

export class Workspace {
  private constructor(
    /** The repository root (the directory holding `.git`). */
    readonly root: string,
    readonly git: Git,
  ) {}

  /**
   * The repository around `cwd`, or null outside one. `runner` sets how its git runs (`synchronous` for a
   * process with nothing else to do: see GitRunnerOptions).
   */
  static find(
    cwd: string,
    env?: NodeJS.ProcessEnv,
    runner: Pick<GitRunnerOptions, 'synchronous'> = {},
  ): Workspace | null {
    const root = findRepoRoot(cwd)
    return root ? new Workspace(root, new Git({ ...runner, cwd: root, ...(env ? { env } : {}) })) : null
  }

  /** `.proctor/` at the repository root around `cwd` (or at `cwd` outside a repository), created. */
  static stateDirs(cwd: string): StateDirs {
    return ensureStateDir(cwd)
  }

  /** `.proctor/sessions/<id>`, created. */
  sessionDir(sessionId: string): string {
    return sessionDir(ensureStateDir(this.root), sessionId)
  }

  /**
   * A session's checkpoint store: config.checkpoints' size limit and spacing, the policy's forbidden areas
   * withheld, and (with `judge`) every checkpoint judged by the policy. `extras` override any of it. The
   * policy's code (its glob matcher among it) is loaded only when the store first has a changed path to
   * weigh or a checkpoint to judge: a session opens its store before its agent's spawn (to record the
   * baseline), and a clean worktree must not cost the spawn that load.
   */
  async store(sessionId: string, config: Config, extras: StoreExtras = {}): Promise<CheckpointStore> {
    const { judge, ...overrides } = extras
    const policy = config.policy
    let code: Promise<typeof import('../policy/index.js')> | undefined
    const load = () => (code ??= import('../policy/index.js'))
    let withhold: ((path: string) => string | null) | undefined
    let scanner: import('../policy/secrets/scanner.js').ContentScanner | undefined
    return new CheckpointStore({
      git: this.git,
      session: sessionId,
      maxFileSize: config.checkpoints.max_file_size,
      minIntervalMs: config.checkpoints.min_interval,
      prepare: async () => {
        // (A loaded config's policy has been checked: an empty forbidden_areas withholds nothing.)
        withhold ??= policy.forbidden_areas.length > 0 ? (await load()).forbiddenAreaOf(policy) : () => null
        scanner ??= await contentScanner(policy)
        if (judge) (await load()).prepareJudge(policy)
      },
      // Only asked after prepare (the store awaits it before it weighs any path).
      withhold: (path) => withhold!(path),
      scanner: () => scanner ?? null,
      ...(judge
        ? {
            validate: async (ctx) => {
              const code = await load()
              return [
                ...code.evaluateCheckpoint({ ...ctx, worktree: this.root, policy }),
                ...(await code.testsWeakened(this.git, ctx.cumulative, ctx.seq, policy)),
              ]
            },
          }
        : {}),
      ...overrides,
    })
  }

  /**
   * What the session's work holds against the policy at its latest checkpoint: the cumulative diff from
   * the session's base, judged as a whole (as the session's own gate judges it).
   */
  async standingViolations(store: CheckpointStore, config: Config): Promise<Violation[]> {
    const latest = store.latest
    if (!latest) return []
    const [{ evaluatePolicy, testsWeakened }, { diffTrees }] = await Promise.all([
      import('../policy/index.js'),
      import('../checkpoints/diff.js'),
    ])
    const files = await diffTrees(this.git, store.baseline, latest)
    return [
      ...evaluatePolicy({
        files,
        checkpoint: store.latestSeq,
        worktree: this.root,
        policy: config.policy,
        scope: 'cumulative',
      }),
      ...(await testsWeakened(this.git, files, store.latestSeq, config.policy)),
    ]
  }

  /** A session's push queue: config.checkpoints' remote, branch and mode, its bundle in the session dir. */
  async pushQueue(sessionId: string, config: Config, options: QueueOptions = {}): Promise<PushQueue> {
    const [{ PushQueue }, { listCheckpoints }] = await Promise.all([
      import('../checkpoints/push.js'),
      import('../checkpoints/history.js'),
    ])
    const base =
      options.base !== undefined
        ? options.base
        : ((await listCheckpoints(this.git, sessionId).catch(() => []))[0]?.base ?? null)
    return new PushQueue({
      git: this.git,
      session: sessionId,
      remote: options.remote ?? config.checkpoints.remote,
      branchTemplate: config.checkpoints.branch,
      mode: options.mode ?? config.checkpoints.push,
      sessionDir: sessionPath(this.root, sessionId),
      base,
      timeoutMs: config.checkpoints.push_timeout,
      pushCiChanges: config.checkpoints.push_ci_changes,
      ...(options.baseline !== undefined ? { baseline: options.baseline } : {}),
      ...(options.remoteUrl ? { remoteUrl: options.remoteUrl } : {}),
      ...(options.secretConfig ? { secretConfig: options.secretConfig } : {}),
      ...(options.written !== undefined ? { written: options.written } : {}),
    })
  }

  /** Pushes a finished session's checkpoints now; null when it has none. */
  async pushSession(
    sessionId: string,
    config: Config,
    options: QueueOptions = {},
  ): Promise<PushRecord | null> {
    const { listCheckpoints } = await import('../checkpoints/history.js')
    const chain = await listCheckpoints(this.git, sessionId).catch(() => [])
    if (chain.length === 0) return null
    const queue = await this.pushQueue(sessionId, config, { base: chain[0]?.base ?? null, ...options })
    return queue.flush()
  }
}

/** The content scan a store runs on every file it would record, with the policy's allowed paths. */
export async function contentScanner(
  policy: Config['policy'],
): Promise<import('../policy/secrets/scanner.js').ContentScanner> {
  const { ContentScanner } = await import('../policy/secrets/scanner.js')
  // The glob matcher only for allowed paths there are (none by default): a one-shot create loads no more.
  if (policy.secret_allowed_paths.length === 0) return new ContentScanner({ rulesSkip: () => false })
  const { compilePolicy } = await import('../policy/compile.js')
  const allowed = compilePolicy(policy).secretAllowed
  return new ContentScanner({ rulesSkip: (path) => allowed.match(path) !== null })
}
