// The serial push queue: refs/proctor/<session> → the remote branch from the `branch` template.
// Fast-forward only: never --force, never --unshallow, so it works from a `fetch-depth: 1` clone. When
// someone else moved the branch, the remote tip is fetched with --depth=1 and the same trees are
// re-committed on top of it (local refs stay as they are). When pushing is impossible (no remote, no
// permission, a ruleset), the checkpoints stay local, the record says why, and a bundle is written.
// A checkpoint that changes CI's definition is not pushed unless the user says so: GitHub runs the workflows
// of the pushed commit (`on: push`, `on: create`) with the repository's secrets whenever the token that
// pushed may start workflows (an App token, a personal token, a developer's own credentials).
import fs from 'node:fs'
import path from 'node:path'

import type { PushRecord } from '../report/model.js'
import { credentialFits } from '../git/credentials.js'
import { GitError } from '../git/errors.js'
import { formatDuration } from '../util/units.js'
import { changedWorkflowDefinitions } from './ci-workflows.js'
import type { Git, PushOutcome } from '../git/runner.js'
import { baselineOf, parseCheckpointMessage } from './message.js'
import { checkpointRef, remoteBranchFor } from './refs.js'

export type PushMode = 'auto' | 'always' | 'never'

export interface PushQueueOptions {
  git: Git
  session: string
  /** Remote name or URL (checkpoints.remote, default "origin"). */
  remote: string
  /** checkpoints.branch template, e.g. "proctor/{session}". */
  branchTemplate: string
  mode: PushMode
  /** `.proctor/sessions/<id>`: where checkpoints.bundle goes when pushing fails. */
  sessionDir: string
  /** The session's base commit; the bundle leaves out history the user already has. */
  base: string | null
  /** At most this many push attempts per flush of work (default 5). */
  maxAttempts?: number
  /** Backoff before retry n (ms); jitter is added. */
  backoffMs?: readonly number[]
  /**
   * checkpoints.push_timeout: the most one push of the latest checkpoint may take, every attempt, backoff and
   * replay fetch included (default 60 s); at the deadline git's whole process group is killed.
   */
  timeoutMs?: number
  /**
   * Where to push, fixed from state the agent never touched (the Action: the event's repository). Without
   * it, the URL `remote` had when the runner read the config (Git.trustedPushUrl: in a session, before the
   * agent started) — never what .git/config says at push time.
   */
  remoteUrl?: string
  sleep?: (ms: number) => Promise<void>
  /**
   * A token for the push and fetch commands only (tokenHeaderConfig), so it never has to be stored in
   * .git/config where the agent could read it.
   */
  secretConfig?: readonly [string, string][]
  /**
   * The checkpoint proctor itself wrote last, when the queue belongs to the session that writes them. Given
   * (even null), the queue pushes only shas handed to schedule(sha), never what the ref holds: the agent can
   * write refs/proctor/<session> too, and a commit it put there was never judged. Left out (a finished
   * session's push, the post step), the ref is all there is to go by.
   */
  written?: string | null
  /**
   * checkpoints.push_ci_changes: push a checkpoint that changed CI's definition (workflows, local actions)
   * since the session's baseline. Off (the default), such a checkpoint stays local and the record says why.
   */
  pushCiChanges?: boolean
  /**
   * The session's baseline (checkpoint 0), CI's definition as the user left it. Without it, the baseline
   * the pushed checkpoint names.
   */
  baseline?: string | null
}

/** refs/proctor/<session> no longer holds the checkpoint proctor wrote last. */
export interface RefMoved {
  ref: string
  /** null: proctor wrote no checkpoint on it (the worktree was HEAD), so the ref should not exist. */
  expected: string | null
  found: string | null
}

/** Why a push can never succeed by retrying. */
const PERMANENT_FAILURES: { pattern: RegExp; reason: string }[] = [
  { pattern: /GH013|rule violations|ruleset/i, reason: 'a repository ruleset rejected the push' },
  { pattern: /protected branch hook declined|protected branch/i, reason: 'the branch is protected' },
  {
    pattern:
      /permission to .* denied|\b403\b|authentication failed|could not read username|terminal prompts disabled|invalid username or password|write access to repository not granted/i,
    reason: 'no permission to push (needs `permissions: contents: write`, or a token that may push)',
  },
  {
    pattern: /repository not found|does not appear to be a git repository|no such remote|not found/i,
    reason: 'the remote repository was not found',
  },
  { pattern: /pre-receive hook declined|hook declined/i, reason: 'a server-side hook declined the push' },
]

const DEFAULT_BACKOFF = [250, 500, 1000, 2000, 4000]
const DEFAULT_TIMEOUT_MS = 60_000

/** The push ran out of checkpoints.push_timeout. */
class PushTimeout extends Error {}

export class PushQueue {
  readonly branch: string
  private readonly options: PushQueueOptions
  private readonly ref: string
  private pending = false
  private running: Promise<void> | null = null
  /** Last local checkpoint whose trees are on the remote, and the remote commit that carries them. */
  private pushedLocal: string | null = null
  private pushedRemote: string | null = null
  private record: PushRecord
  /** The checkpoint proctor wrote last (own-writes mode: PushQueueOptions.written given). */
  private written: string | null
  private readonly ownWrites: boolean
  private moved: RefMoved | null = null

  constructor(options: PushQueueOptions) {
    this.options = options
    this.ref = checkpointRef(options.session)
    this.branch = remoteBranchFor(options.branchTemplate, options.session)
    this.ownWrites = options.written !== undefined
    this.written = options.written ?? null
    this.record = {
      ok: false,
      remote: null,
      branch: this.branch,
      sha: null,
      reason: 'nothing pushed yet',
      bundle: null,
    }
  }

  /** The outcome so far, for the report. */
  get state(): PushRecord {
    return { ...this.record }
  }

  /**
   * Something other than proctor moved refs/proctor/<session> off the checkpoint proctor wrote last; from
   * then on nothing more is pushed (own-writes mode only).
   */
  get refMoved(): RefMoved | null {
    return this.moved ? { ...this.moved } : null
  }

  /**
   * Queue a push of checkpoint `sha`, which proctor just wrote (own-writes mode), or of what the ref holds.
   * Coalesces; never throws.
   */
  schedule(sha?: string): void {
    if (sha !== undefined) this.written = sha
    if (this.options.mode === 'never' || this.moved) return
    this.pending = true
    this.running ??= this.drain().finally(() => {
      this.running = null
    })
  }

  /**
   * The final push: waits for queued work, pushes what is left and, if the remote did not get
   * everything, writes the bundle. Never throws; the record says what happened.
   */
  async flush(): Promise<PushRecord> {
    if (this.options.mode === 'never') {
      this.record = { ...this.record, ok: false, reason: 'pushing is off (checkpoints.push: never)' }
      return this.state
    }
    this.flushDeadline = Date.now() + this.budget
    this.schedule()
    while (this.running) await this.running
    this.flushDeadline = Infinity
    // A moved ref holds commits proctor never judged: no bundle of it either.
    if (this.moved) return this.state
    const local = this.ownWrites ? this.written : await this.options.git.revParse(this.ref)
    if (!local || local === this.pushedLocal) return this.state
    // The bundle is made of the ref: it must still be what proctor wrote.
    if (this.ownWrites && !(await this.refHolds(local))) return this.state
    await this.writeBundle(local)
    return this.state
  }

  /**
   * Pushes now and waits (the `ci-checks` stop hook): the remote commit that carries checkpoint `sha` —
   * `sha` itself, or its tree re-committed on a branch someone else moved — or why there is none. Only a
   * push of exactly `sha` counts: CI must run on the commit that was judged.
   */
  async pushOf(sha: string): Promise<{ ok: true; sha: string } | { ok: false; reason: string }> {
    if (this.options.mode === 'never')
      return { ok: false, reason: 'pushing is off (checkpoints.push: never)' }
    this.schedule()
    while (this.running) await this.running
    if (this.pushedLocal === sha && this.pushedRemote) return { ok: true, sha: this.pushedRemote }
    return {
      ok: false,
      reason:
        this.record.reason ??
        `the latest push carried ${this.pushedLocal?.slice(0, 12) ?? 'nothing'}, not checkpoint ${sha.slice(0, 12)}`,
    }
  }

  private async drain(): Promise<void> {
    while (this.pending) {
      this.pending = false
      try {
        await this.pushLatest()
      } catch (error) {
        this.record = { ...this.record, ok: false, reason: `push failed: ${describe(error)}` }
      }
    }
  }

  /** checkpoints.push_timeout in ms. */
  private get budget(): number {
    return this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  }

  /** When the push under way must be over (Date.now() ms). */
  private deadline = Infinity
  /** When the final push (flush) must be over, whatever push was under way when it began. */
  private flushDeadline = Infinity

  /** Time left before the deadline, for the next network command; throws PushTimeout when none is. */
  private remaining(): number {
    const left = this.deadline - Date.now()
    if (left <= 0) throw new PushTimeout()
    return left
  }

  private async pushLatest(): Promise<void> {
    this.deadline = Math.min(Date.now() + this.budget, this.flushDeadline)
    try {
      await this.pushWithin()
    } catch (error) {
      const timedOut = isTimeout(error)
      if (!timedOut) throw error
      this.record = {
        ...this.record,
        ok: false,
        reason: `push timed out after ${seconds(this.budget)} (checkpoints.push_timeout)`,
      }
    } finally {
      this.deadline = Infinity
    }
  }

  private async pushWithin(): Promise<void> {
    const git = this.options.git
    const local = this.ownWrites ? this.written : await git.revParse(this.ref)
    if (this.ownWrites && !(await this.refHolds(local))) return
    if (!local || local === this.pushedLocal) return
    const refusal = await this.ciChangeRefusal(local)
    if (refusal) {
      this.record = { ...this.record, ok: false, reason: refusal }
      return
    }
    const remoteUrl = await this.remoteExists()
    if (!remoteUrl) {
      this.record = {
        ...this.record,
        ok: false,
        remote: null,
        reason: `no remote named "${this.options.remote}"; checkpoints stay local`,
      }
      return
    }
    this.record.remote = this.options.remote
    const secret = this.options.secretConfig
    if (secret && secret.length > 0 && !credentialFits(secret, remoteUrl)) {
      // The token was issued for another origin: pushing without it would fail, pushing with it could hand
      // it to whoever serves this URL (a local repository's hooks see it). Neither is a safe push.
      this.record = {
        ...this.record,
        ok: false,
        reason: `${describeUrl(remoteUrl)} is not on the host proctor's token is for: pushing there could hand the token to its hooks; checkpoints stay local`,
      }
      return
    }
    const target = `refs/heads/${this.branch}`
    const attempts = this.options.maxAttempts ?? 5
    let candidate =
      this.pushedRemote && this.pushedRemote !== this.pushedLocal
        ? await this.replayOnto(this.pushedRemote, local)
        : local
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const outcome = await git.push(remoteUrl, [`${candidate}:${target}`], {
        timeoutMs: this.remaining(),
        ...(this.options.secretConfig ? { secretConfig: this.options.secretConfig } : {}),
      })
      if (outcome.ok) {
        this.pushedLocal = local
        this.pushedRemote = candidate
        this.record = { ...this.record, ok: true, sha: candidate, reason: null }
        return
      }
      const permanent = classifyPermanent(outcome)
      if (permanent) {
        this.record = { ...this.record, ok: false, reason: `${permanent}: ${firstLine(outcome)}` }
        return
      }
      const rejected = outcome.refs.find((r) => r.status === 'rejected')
      this.record = {
        ...this.record,
        ok: false,
        reason: rejected
          ? `rejected (${rejected.summary}) after ${attempt} attempts`
          : `push failed: ${firstLine(outcome)}`,
      }
      if (attempt === attempts) return
      await this.backoff(attempt)
      if (rejected) {
        // Someone else moved the branch: build the same trees on top of their tip and try again.
        const tip = await this.fetchRemoteTip(remoteUrl, target)
        if (tip) candidate = await this.replayOnto(tip, local)
      }
    }
  }

  /**
   * Own-writes mode: the ref must still hold `written`. If it does not, the queue stops for good and the
   * record says why: whoever moved it can move it again, and the chain behind it is no longer proctor's.
   * What is pushed is `written` itself (never the ref), so a move after this check changes nothing pushed.
   */
  private async refHolds(written: string | null): Promise<boolean> {
    const found = await this.options.git.revParse(this.ref)
    if (found === written) return true
    this.moved = { ref: this.ref, expected: written, found }
    const wrote = written
      ? `no longer holds checkpoint ${written.slice(0, 12)}, the last one proctor wrote`
      : 'holds a commit although proctor wrote no checkpoint there'
    const what = found ? `something else moved it to ${found.slice(0, 12)}` : 'something else deleted it'
    this.record = {
      ...this.record,
      ok: false,
      reason: `${this.ref} ${wrote} (${what}); nothing more is pushed`,
    }
    return false
  }

  /**
   * Why checkpoint `local` is not pushed because it changes CI's definition since the baseline, or null. It
   * fails closed: a definition that cannot be compared is not pushed either.
   */
  private async ciChangeRefusal(local: string): Promise<string | null> {
    if (this.options.pushCiChanges) return null
    const git = this.options.git
    const fix =
      'it stays local. If changing CI is the task, review it and set checkpoints.push_ci_changes: true'
    let changed: { path: string }[]
    try {
      const baseline =
        this.options.baseline !== undefined
          ? this.options.baseline
          : baselineOf(
              local,
              parseCheckpointMessage((await git.raw(['log', '-1', '--format=%B', local])).stdout),
            )
      changed = await changedWorkflowDefinitions(git, baseline, local)
    } catch (error) {
      return `cannot tell whether checkpoint ${local.slice(0, 12)} changes CI's definition (${describe(error)}); ${fix}`
    }
    if (changed.length === 0) return null
    const shown = changed.slice(0, 3).map((c) => c.path)
    const more = changed.length > shown.length ? ` and ${changed.length - shown.length} more` : ''
    return (
      `checkpoint ${local.slice(0, 12)} changes CI's definition (${shown.join(', ')}${more}): pushed, the changed ` +
      `workflows would run with the repository's secrets wherever the push token starts workflows; ${fix}`
    )
  }

  /** Re-commit each of our checkpoints not yet on the remote (same tree, same message) on top of `tip`. */
  private async replayOnto(tip: string, local: string): Promise<string> {
    const git = this.options.git
    const range = [local]
    const stop = this.pushedLocal ?? this.options.base
    if (stop) range.push(`^${stop}`)
    const commits = (await git.raw(['rev-list', '--reverse', '--first-parent', ...range])).stdout
      .split('\n')
      .filter((line) => line !== '')
    let parent = tip
    for (const commit of commits) {
      const tree = (await git.raw(['rev-parse', `${commit}^{tree}`])).stdout.trim()
      const message = (await git.raw(['log', '-1', '--format=%B', commit])).stdout
      parent = await git.commitTree(tree, [parent], message)
    }
    return parent
  }

  private async fetchRemoteTip(url: string, target: string): Promise<string | null> {
    const git = this.options.git
    const tracking = `refs/proctor-remote/${this.options.session}`
    try {
      await git.fetch(url, [`+${target}:${tracking}`], {
        depth: 1,
        timeoutMs: this.remaining(),
        ...(this.options.secretConfig ? { secretConfig: this.options.secretConfig } : {}),
      })
    } catch (error) {
      if (isTimeout(error)) throw new PushTimeout()
      return null
    }
    return git.revParse(tracking)
  }

  /** The URL to push to: given, or fixed when the runner first read the config (see remoteUrl). */
  private async remoteExists(): Promise<string | null> {
    return this.options.remoteUrl ?? this.options.git.trustedPushUrl(this.options.remote)
  }

  private async writeBundle(local: string): Promise<void> {
    const file = path.join(this.options.sessionDir, 'checkpoints.bundle')
    try {
      fs.mkdirSync(this.options.sessionDir, { recursive: true })
      const revs = [this.ref]
      const stop = this.options.base
      if (stop && stop !== local) revs.push(`^${stop}`)
      await this.options.git.bundleCreate(file, revs)
      this.record = { ...this.record, bundle: file }
    } catch (error) {
      this.record = {
        ...this.record,
        reason: `${this.record.reason ?? ''}; bundle failed: ${describe(error)}`,
      }
    }
  }

  private async backoff(attempt: number): Promise<void> {
    const steps = this.options.backoffMs ?? DEFAULT_BACKOFF
    const base = steps[Math.min(attempt - 1, steps.length - 1)] ?? 0
    const ms = base + Math.floor(Math.random() * (base / 2))
    // A wait that outlasts the deadline would only end in a timeout: end now.
    if (ms >= this.remaining()) throw new PushTimeout()
    if (ms > 0) await (this.options.sleep ?? defaultSleep)(ms)
  }
}

function classifyPermanent(outcome: PushOutcome): string | null {
  if (
    outcome.refs.some(
      (r) => r.status === 'rejected' && /non-fast-forward|fetch first|stale info/.test(r.summary),
    )
  ) {
    return null
  }
  const text = `${outcome.stderr}\n${outcome.refs.map((r) => r.summary).join('\n')}`
  return PERMANENT_FAILURES.find((f) => f.pattern.test(text))?.reason ?? null
}

function firstLine(outcome: PushOutcome): string {
  const text = outcome.stderr
    .split('\n')
    .map((line) => line.trim())
    .find((line) => /error|fatal|denied|reject|remote:/i.test(line))
  return (
    text ??
    outcome.refs.find((r) => r.status === 'rejected')?.summary ??
    `git exited with ${outcome.exitCode}`
  )
}

function describe(error: unknown): string {
  if (error instanceof GitError) return error.message.split('\n')[0] ?? error.message
  return error instanceof Error ? error.message : String(error)
}

/** A URL for the report, without any credentials embedded in it. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url)
    parsed.username = ''
    parsed.password = ''
    return parsed.toString()
  } catch {
    return url
  }
}

/** A deadline as the config would write it: `60s`, `1.5s`. */
function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : formatDuration(ms)
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * The push's deadline ran out, or git was killed at its own: GitError.timedOut, never a match on the
 * message, whose stderr tail may quote curl's "Operation timed out after …" of a failure to retry.
 */
function isTimeout(error: unknown): boolean {
  return error instanceof PushTimeout || (error instanceof GitError && error.timedOut)
}
