// What the verify and publish jobs of the two-job layout (docs/action.md#two-job-layout) both do with
// the agent job's handoffs: collect and check them, judge a session's diff from git objects (gate files
// changed, the policy), and build the session report around what the agent job only claimed.
import * as core from '@actions/core'
import { tmpdir } from 'node:os'
import { join, relative, resolve, sep } from 'node:path'
import type { Config } from '../config/schema.js'
import type { Git } from '../git/runner.js'
import { diffTrees, type ChangedFile } from '../checkpoints/diff.js'
import { atLeast, evaluatePolicy, testsWeakened } from '../policy/index.js'
import { contentScanner } from '../state/workspace.js'
import { markSecretBlobs } from '../policy/secrets/blobs.js'
import { enforceGate, judgeGate, type GateSpec } from '../hooks/gate-files.js'
import type { PushRecord, SessionEvent, SessionReport, StopHookResult, Violation } from '../report/model.js'
import { ReportBuilder } from '../report/builder.js'
import type { ActionsContext } from '../github/context.js'
import { writeOutputs } from '../github/summary.js'
import { checkpointRef, remoteBranchFor } from '../checkpoints/refs.js'
import { withSecretsInEnv, type WithheldSecrets } from '../supervisor/agent-env.js'
import { ciOf } from './config.js'
import type { ActionInputs } from './inputs.js'
import { downloadArtifacts } from './artifact.js'
import { sanitizeRefPart } from '../session/session-id.js'
import {
  acceptHandoff,
  ARTIFACT_ENV,
  HANDOFF_PREFIX,
  type AcceptedHandoff,
  type HandoffResult,
} from './handoff.js'

type Env = Record<string, string | undefined>

export const DEFAULT_HANDOFF_PATTERN = `${HANDOFF_PREFIX}*`

/** Constraints whose content is never pushed at error or critical severity. */
export const UNPUSHABLE: ReadonlySet<string> = new Set([
  'forbidden_area',
  'file_size',
  'unsafe_path',
  'secret_content',
])

/** The violations that keep a commit off the remote: an UNPUSHABLE constraint at error or worse. */
export function unpushable(violations: readonly Violation[]): Violation[] {
  return violations.filter((v) => UNPUSHABLE.has(v.constraint) && atLeast(v.severity, 'error'))
}

/** The push record of a session whose checkpoints were not pushed, saying why. */
export function notPushed(config: Config, sessionId: string, reason: string): PushRecord {
  return {
    ok: false,
    remote: null,
    branch: remoteBranchFor(config.checkpoints.branch, sessionId),
    sha: null,
    reason,
    bundle: null,
  }
}

/** The handoffs on disk (`reports`: directories) or downloaded (`artifact-pattern`), each accepted or not. */
export async function collectHandoffs(
  inputs: ActionInputs,
  env: Env,
  ctx: ActionsContext,
  token: string,
  git: Git,
  head: string,
  secrets: WithheldSecrets,
  /**
   * Publish: when the verify job started (GitHub's record). A handoff artifact created after that second
   * came from inside the verify job (code there can reach the runtime token), never from the agent job.
   */
  verifyStarted: string | null = null,
): Promise<HandoffResult[]> {
  const found: { name: string; dir: string; createdAt?: string | null }[] = []
  const problems: string[] = []
  if (inputs.reports) {
    for (const dir of inputs.reports
      .split(/[\n,]/)
      .map((p) => p.trim())
      .filter(Boolean)) {
      found.push({ name: dir, dir: resolve(dir) })
    }
  } else {
    const pattern = inputs.artifactPattern || DEFAULT_HANDOFF_PATTERN
    const dest = join(env.RUNNER_TEMP || tmpdir(), `proctor-handoffs-${process.pid}`)
    const downloaded = await withSecretsInEnv(secrets, ARTIFACT_ENV, () =>
      downloadArtifacts({ pattern, dest, token, context: ctx }),
    )
    found.push(...downloaded.artifacts)
    problems.push(...downloaded.problems)
  }
  const results: HandoffResult[] = problems.map((problem) => ({
    ok: false as const,
    sessionId: 'handoff',
    problem: `no usable handoff from the agent job: ${problem}`,
  }))
  // GitHub records started_at to the second: the job started within that second, so an artifact of the
  // same second may predate it. A finer record is compared as it is.
  const latest = verifyStarted ? Date.parse(verifyStarted) + (/\.\d+Z?$/.test(verifyStarted) ? 0 : 999) : NaN
  for (const { name, dir, createdAt } of found) {
    const created = createdAt ? Date.parse(createdAt) : NaN
    // A downloaded artifact (createdAt given, even null) is accepted only when it provably predates the
    // verify job; one read from disk (`reports`) carries no creation time at all.
    if (verifyStarted && createdAt !== undefined && !(created <= latest)) {
      results.push({
        ok: false,
        sessionId: sanitizeRefPart(name.replace(/^.*\//, '').replace(HANDOFF_PREFIX, '')),
        problem: `the artifact ${name} was created at ${createdAt}, after the verify job started (${verifyStarted}): a handoff comes from the agent job, before that`,
      })
      continue
    }
    results.push(await acceptHandoff(git, dir, name.replace(/^.*\//, ''), head))
  }
  if (results.length === 0)
    results.push({ ok: false, sessionId: 'handoff', problem: 'no handoff from the agent job was found' })
  return results
}

/** What defines the gate (src/hooks/gate-files.ts): this checkout's config file and stop hooks. */
export function gateSpec(root: string, configPath: string | null, config: Config): GateSpec {
  const hookDir = relative(root, process.cwd()).split(sep).join('/')
  return {
    configFile: configPath ? relative(root, configPath).split(sep).join('/') : null,
    hooks: config.stop_hooks,
    hookDir: hookDir.startsWith('..') ? '' : hookDir,
  }
}

/**
 * One session's diff (checked-out commit → the handoff's last checkpoint), judged from git objects: sizes
 * come from the blobs, symlink targets from git. A change to the gate is a critical `gate_file` violation.
 * What must never be pushed (UNPUSHABLE) is judged in every commit of the chain as well (judgeChain).
 * `enforce` (verify, where the tip is checked out in `worktree`): the gate is then put back to the
 * checked-out version so the hooks run the user's judge; without it (publish) nothing is touched.
 */
export async function judgeDiff(o: {
  git: Git
  head: string
  tip: string
  gate: GateSpec
  config: Config
  worktree: string
  checkpoint: number | null
  enforce?: boolean
}): Promise<{ files: ChangedFile[]; violations: Violation[] }> {
  const files = await diffTrees(o.git, o.head, o.tip)
  const gate = o.enforce
    ? await enforceGate(o.git, o.worktree, o.head, o.tip, o.gate, { checkpoint: o.checkpoint, files })
    : await judgeGate(o.git, o.head, o.tip, o.gate, o.checkpoint, files)
  const violations: Violation[] = [
    ...gate.violations,
    ...evaluatePolicy({
      files,
      checkpoint: o.checkpoint,
      worktree: o.worktree,
      policy: o.config.policy,
      scope: 'cumulative',
    }),
    ...(await testsWeakened(o.git, files, o.checkpoint, o.config.policy)),
  ]
  const seen = new Set(violations.map((v) => `${v.file}\0${v.constraint}`))
  for (const v of await judgeChain(o)) {
    const key = `${v.file}\0${v.constraint}`
    if (seen.has(key)) continue
    seen.add(key)
    violations.push(v)
  }
  return { files, violations }
}

/**
 * The UNPUSHABLE violations of each commit between the checked-out commit and the tip, against each of
 * its parents: the diff head → tip misses a file one checkpoint adds and a later one deletes, yet a push
 * of the tip carries every commit behind it to the remote (where reviewers read the chain).
 */
export async function judgeChain(o: {
  git: Git
  head: string
  tip: string
  config: Config
  worktree: string
  checkpoint: number | null
}): Promise<Violation[]> {
  if (o.tip === o.head) return []
  const out = await o.git.raw(['rev-list', '--reverse', '--parents', o.tip, `^${o.head}`, '--'])
  const found: Violation[] = []
  // Every blob the chain adds is read and scanned: the agent job's own scan is only a claim.
  const scanner = await contentScanner(o.config.policy)
  for (const line of out.stdout.split('\n')) {
    const [commit, ...parents] = line.split(' ').filter(Boolean)
    if (!commit) continue
    for (const parent of parents.length ? parents : [null]) {
      const files = await diffTrees(o.git, parent, commit)
      await markSecretBlobs(o.git, commit, files, scanner)
      for (const v of evaluatePolicy({
        files,
        checkpoint: o.checkpoint,
        worktree: o.worktree,
        policy: o.config.policy,
        scope: 'checkpoint',
      })) {
        if (!UNPUSHABLE.has(v.constraint)) continue
        found.push({
          ...v,
          message: `${v.message} (in commit ${commit.slice(0, 12)} of the checkpoint chain, which a push carries although the final diff no longer shows it)`,
        })
      }
    }
  }
  return found
}

/** The last checkpoint's sequence number the agent job claimed (for the violations' `checkpoint`). */
export function claimedSeq(handoff: AcceptedHandoff): number | null {
  return handoff.claimed.checkpoints.at(-1)?.seq ?? null
}

/**
 * A session report of this job: `verdict`, `reason`, `violations` and `stop_hooks` are this job's; the
 * rest (events, transcript tail, checkpoints) is what the agent job handed over, shown as reported.
 */
export function sessionReport(o: {
  handoff: AcceptedHandoff
  verdict: 'allow' | 'block'
  reason: string | null
  violations: Violation[]
  stopHooks: StopHookResult[]
  ctx: ActionsContext
  started: number
}): SessionReport {
  const claimed = o.handoff.claimed
  const report = new ReportBuilder({
    sessionId: o.handoff.sessionId,
    command: stringList(claimed.command),
    cwd: process.cwd(),
    mode: claimed.mode === 'pty' ? 'pty' : 'pipe',
    transcriptPath: '',
    ci: ciOf(o.ctx),
    startedAt: new Date(o.started),
  })
  report.recorded(reportedEvents(claimed.events))
  for (const checkpoint of claimed.checkpoints) report.checkpoint(checkpoint)
  report.violation(...o.violations)
  for (const hook of o.stopHooks) report.stopHook(hook)
  report.round(1)
  report.agentJob({
    session_id: o.handoff.sessionId,
    status: String(claimed.status),
    verdict: String(claimed.verdict),
    reason: typeof claimed.reason === 'string' ? claimed.reason : null,
    stop_hooks: Array.isArray(claimed.stop_hooks) ? claimed.stop_hooks : [],
  })
  report.finish({
    status: 'completed',
    verdict: o.verdict,
    exitCode: o.verdict === 'allow' ? 0 : 1,
    signal: null,
    reason: o.reason,
    outputTail: typeof claimed.output_tail === 'string' ? claimed.output_tail : '',
    transcript: {
      bytes: typeof claimed.transcript?.bytes === 'number' ? claimed.transcript.bytes : 0,
      capped: claimed.transcript?.capped === true,
    },
  })
  return report.snapshot()
}

/** A handoff that could not be used: every hook and the policy fail, saying why. */
export function rejectedReport(
  sessionId: string,
  problem: string,
  config: Config,
  ctx: ActionsContext,
  started: number,
): SessionReport {
  const report = new ReportBuilder({
    sessionId,
    command: [],
    cwd: process.cwd(),
    mode: 'pipe',
    transcriptPath: '',
    ci: ciOf(ctx),
    startedAt: new Date(started),
  })
  const rejection = `the agent job's handoff was rejected: ${problem}`
  report.violation({
    checkpoint: null,
    file: 'proctor-handoff',
    constraint: 'handoff',
    severity: 'critical',
    message: rejection,
    suggestion: 'Re-run the workflow; a handoff that does not match its own report is never trusted',
  })
  for (const hook of config.stop_hooks)
    report.stopHook({
      name: hook.name,
      verdict: 'block',
      reason: `not run: ${problem}`,
      exit_code: null,
      duration_ms: 0,
      round: 1,
    })
  report.agentJob({
    session_id: sessionId,
    status: 'unknown',
    verdict: 'unknown',
    reason: problem,
    stop_hooks: [],
  })
  report.finish({
    status: 'errored',
    verdict: 'block',
    exitCode: 1,
    signal: null,
    reason: rejection,
    outputTail: '',
    transcript: { bytes: 0, capped: false },
  })
  return report.snapshot()
}

/** Logs a rejected handoff and returns its report. */
export function rejected(
  result: Extract<HandoffResult, { ok: false }>,
  config: Config,
  ctx: ActionsContext,
  started: number,
  forLog: (text: string) => string,
): SessionReport {
  core.error(`proctor: handoff ${result.sessionId} rejected: ${forLog(result.problem)}`)
  return rejectedReport(result.sessionId, result.problem, config, ctx, started)
}

function reportedEvents(events: unknown): SessionEvent[] {
  if (!Array.isArray(events)) return []
  return events.flatMap((e: unknown) => {
    const x = e as Partial<SessionEvent> | null
    return x &&
      typeof x === 'object' &&
      typeof x.kind === 'string' &&
      typeof x.message === 'string' &&
      typeof x.at === 'number'
      ? [
          {
            at: x.at,
            kind: x.kind,
            message: x.message,
            ...(typeof x.name === 'string' ? { name: x.name } : {}),
          },
        ]
      : []
  })
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

/** The step's outputs for the sessions a verify or publish job judged (docs/action.md#outputs). */
export function writeJudgedOutputs(
  judged: readonly { report: SessionReport; sha: string | null; rejected: boolean }[],
  commentUrl: string,
): { blocked: boolean } {
  const blocked = judged.some(({ report }) => report.verdict === 'block')
  const first = judged[0]!
  const withCheckpoints = first.report.checkpoints.length > 0
  writeOutputs({
    verdict: blocked ? 'block' : 'allow',
    status: judged.some((j) => j.rejected) ? 'errored' : 'completed',
    'session-id': judged.map(({ report }) => report.session_id).join(','),
    'checkpoint-ref': withCheckpoints ? checkpointRef(first.report.session_id) : '',
    'checkpoint-sha': withCheckpoints ? (first.sha ?? '') : '',
    'checkpoint-count': first.report.checkpoints.length,
    violations: judged.flatMap(({ report }) => report.violations).length,
    'report-path': '',
    'comment-url': commentUrl,
  })
  return { blocked }
}
