// Check runs: `proctor / <hook>` per stop hook (completed with its verdict; in_progress first only for a
// hook that runs long enough for a reviewer to see it running) and `proctor / policy` with the violations as annotations (50 per request, the rest in follow-up
// updates). When check runs cannot be written (403: fork PR or read-only token) everything is reported
// as workflow-command annotations instead, and the log says so once. What a check says is rendered by
// report/check-run.ts; this module only decides conclusions and sends.
import type { StopHookResult, Violation } from '../report/model.js'
import {
  CHECK_LIMITS,
  cancelledOutput,
  cap,
  hookAnnotationText,
  hookAnnotations,
  hookCheckOutput,
  policyCheckTitle,
  violationAnnotation,
  type ApiAnnotationLevel,
  type CheckAnnotation,
  type CheckConclusion,
} from '../report/check-run.js'
import type { Sanitizer } from '../util/sanitize.js'
import { stripControl } from '../util/sanitize.js'
import type { GitHubOctokit } from './client.js'
import { describeError } from './client.js'
import { NO_PLUGIN_RETRY, createOnce } from './create-once.js'
import { coreAnnotator, lineAnnotator, type AnnotationLevel, type Annotator } from './workflow-commands.js'

export { CHECK_LIMITS, type CheckConclusion }

export interface CheckRunsOptions {
  octokit: GitHubOctokit
  owner: string
  repo: string
  headSha: string
  sanitizer: Sanitizer
  /** Link shown on the check run (the workflow run). */
  detailsUrl?: string | null
  /** Name prefix; check names are `<prefix> / <hook>` (default `proctor`). */
  prefix?: string
  /**
   * Stored as each check run's `external_id` (the session id), so a later step can tell this session's
   * open checks from those of a matrix sibling on the same commit.
   */
  externalId?: string
  /** Takes annotation command lines instead of @actions/core (tests, tools that capture them). */
  emit?: (line: string) => void
  onCall?: (operation: string) => void
  /** Start in fallback mode (read-only token known in advance, e.g. a fork PR). */
  readOnly?: boolean
  /** Failures other than a refusal (GitHub down, 5xx after retries); the item is then logged as an annotation. */
  onError?: (error: unknown) => void
  /**
   * How long a hook runs before its check run is created in_progress (default
   * HOOK_IN_PROGRESS_AFTER_MS). A hook that ends sooner gets one create, already completed.
   */
  inProgressAfterMs?: number
}

/**
 * A hook's running check is what a reviewer sees while a long hook works; a hook done within a few
 * seconds needs no progress, and its check run costs one write instead of two (create + update), each
 * spaced a second apart by the client.
 */
export const HOOK_IN_PROGRESS_AFTER_MS = 5_000

// Fail closed: a hook that blocked, failed or could not run fails its check (branch protection counts
// neutral as passing); only an advisory hook (on_error: allow, advisory: true) that did not pass is neutral.
const CONCLUSION_OF: Record<StopHookResult['verdict'], CheckConclusion> = {
  allow: 'success',
  block: 'failure',
  error: 'failure',
}

const COMMAND_LEVEL_OF: Record<ApiAnnotationLevel, AnnotationLevel> = {
  notice: 'notice',
  warning: 'warning',
  failure: 'error',
}

export function hookConclusion(result: StopHookResult): CheckConclusion {
  if (result.verdict !== 'allow' && result.advisory) return 'neutral'
  return CONCLUSION_OF[result.verdict]
}

/**
 * Unresolved error/critical violations fail the policy check; warnings, and errors the agent fixed (or
 * proctor reverted) before the end, make it neutral.
 */
export function policyConclusion(violations: Violation[]): CheckConclusion {
  const serious = (v: Violation) => v.severity === 'error' || v.severity === 'critical'
  if (violations.some((v) => serious(v) && !v.resolved)) return 'failure'
  return violations.some((v) => v.severity === 'warning' || serious(v)) ? 'neutral' : 'success'
}

/**
 * One hook over several sessions, for the one `proctor / <hook>` a publish or aggregate job writes for
 * all of them: allowed only when it allowed in every session; otherwise blocked, with each failing
 * session's reason (named when `named`) and `missing` for a session without a result. Never `neutral`
 * or `error`: anything but allow fails (neutral passes branch protection).
 */
export function mergeHookResults(
  name: string,
  per: { session: string; result: StopHookResult | null }[],
  named: boolean,
  missing: string,
): StopHookResult {
  const failing = per.filter((p) => p.result?.verdict !== 'allow')
  return {
    name,
    verdict: failing.length ? 'block' : 'allow',
    reason: failing.length
      ? failing.map((p) => `${named ? `${p.session}: ` : ''}${p.result?.reason ?? missing}`).join('\n')
      : null,
    exit_code: null,
    duration_ms: 0,
    round: 1,
  }
}

/**
 * Annotations on one policy check at most: 10 requests. Each further 50 would cost one more write a
 * second apart, and a flood of violations (thousands of files in a forbidden area, a forged report in a
 * matrix) must not turn into minutes of writes against GitHub's per-minute limit.
 */
export const MAX_POLICY_ANNOTATIONS = 500
const SEVERITY_RANK: Record<Violation['severity'], number> = { critical: 0, error: 1, warning: 2, info: 3 }

/** Every public method resolves (never rejects): GitHub is a sink, not a dependency. */
export class CheckRuns {
  private readonly open = new Map<string, number>()
  /** Hooks started whose check run is not created yet: when they started, and the in_progress timer. */
  private readonly starting = new Map<string, { startedAt: string; timer: NodeJS.Timeout | null }>()
  /** In_progress creates on their way (the timer fired): a finish waits for its hook's. */
  private readonly opening = new Map<string, Promise<void>>()
  /** Ids of the check runs this object created (a lost create's run is told from these). */
  private readonly written = new Set<number>()
  /** Web pages of the check runs written, by check name (`proctor / tests`), in creation order. */
  private readonly pages = new Map<string, string>()
  private fallbackReason: string | null = null
  private readonly annotate: Annotator

  constructor(private readonly options: CheckRunsOptions) {
    this.annotate = options.emit ? lineAnnotator(options.emit) : coreAnnotator
    if (options.readOnly) this.fallbackReason = 'the token is read-only for this event (fork pull request)'
  }

  /** The check runs written so far and their web pages (for the comment's header). */
  links(): { name: string; url: string }[] {
    return [...this.pages].map(([name, url]) => ({ name, url }))
  }

  /** Null while check runs work; otherwise why proctor fell back to workflow annotations. */
  get fallback(): string | null {
    return this.fallbackReason
  }

  name(hook: string): string {
    return `${this.options.prefix ?? 'proctor'} / ${hook}`
  }

  /**
   * Notes the hook's start. Its check run is created in_progress only if the hook still runs after
   * `inProgressAfterMs`; one that ends sooner is created completed by hookFinished (one call).
   */
  hookStarted(hook: string): void {
    if (this.fallbackReason) return
    this.clearStart(hook)
    const startedAt = new Date().toISOString()
    const delay = this.options.inProgressAfterMs ?? HOOK_IN_PROGRESS_AFTER_MS
    const timer = setTimeout(() => this.openNow(hook), delay)
    // A process that has nothing else left to do does not wait for a hook's progress.
    timer.unref()
    this.starting.set(hook, { startedAt, timer })
  }

  private openNow(hook: string): void {
    const start = this.starting.get(hook)
    if (!start) return
    this.starting.delete(hook)
    const opening = this.guard(async () => {
      const id = await this.create({
        name: this.name(hook),
        status: 'in_progress',
        started_at: start.startedAt,
      })
      this.open.set(hook, id)
    }).then(() => undefined)
    this.opening.set(hook, opening)
    void opening.finally(() => {
      if (this.opening.get(hook) === opening) this.opening.delete(hook)
    })
  }

  /**
   * The end is being written: no hook's in_progress create may start now (it would race with the
   * completed one written for the same hook and leave two runs).
   */
  private holdStarts(): void {
    for (const start of this.starting.values()) {
      if (start.timer) clearTimeout(start.timer)
      start.timer = null
    }
  }

  private clearStart(hook: string): string | undefined {
    const start = this.starting.get(hook)
    if (!start) return undefined
    if (start.timer) clearTimeout(start.timer)
    this.starting.delete(hook)
    return start.startedAt
  }

  /** Completes the hook's check run (creating it completed if its start was never recorded). */
  async hookFinished(result: StopHookResult): Promise<void> {
    const conclusion = hookConclusion(result)
    const annotations = conclusion === 'success' ? [] : hookAnnotations(result, this.options.sanitizer)
    const output = {
      ...hookCheckOutput(result, conclusion, this.options.sanitizer),
      ...(annotations.length > 0 ? { annotations } : {}),
    }
    const startedAt = this.clearStart(result.name)
    await this.opening.get(result.name)
    if (this.fallbackReason) return this.annotateHook(result, conclusion)
    const ok = await this.guard(async () => {
      const id = this.open.get(result.name)
      this.open.delete(result.name)
      const fields = {
        status: 'completed' as const,
        conclusion,
        ...(startedAt ? { started_at: startedAt } : {}),
        completed_at: new Date().toISOString(),
        output,
      }
      if (id === undefined) await this.create({ name: this.name(result.name), ...fields })
      else await this.update(id, fields)
    })
    if (!ok) this.annotateHook(result, conclusion)
  }

  /**
   * Takes over this session's `<prefix> / *` check runs still in_progress on the head commit (the main
   * step was killed before completing them), so cancelOpen/settleOpen can complete them. One API call.
   * Returns the hooks adopted.
   */
  async adoptOpen(): Promise<string[]> {
    if (this.fallbackReason) return []
    const prefix = `${this.options.prefix ?? 'proctor'} / `
    const adopted: string[] = []
    await this.guard(async () => {
      const { octokit, owner, repo, headSha, externalId } = this.options
      this.options.onCall?.('checks.listForRef')
      const { data } = await octokit.rest.checks.listForRef({
        owner,
        repo,
        ref: headSha,
        status: 'in_progress',
        filter: 'latest',
        per_page: 100,
      })
      for (const run of data.check_runs) {
        if (!run.name.startsWith(prefix)) continue
        if (externalId && run.external_id !== externalId) continue
        const hook = run.name.slice(prefix.length)
        if (this.open.has(hook)) continue
        this.open.set(hook, run.id)
        adopted.push(hook)
      }
    })
    return adopted
  }

  /**
   * Completes every still-open hook check: with the hook's result when the report has one (the main
   * step ran the hook but died before writing its check), else as cancelled.
   */
  async settleOpen(results: StopHookResult[], reason: string): Promise<void> {
    this.holdStarts()
    await Promise.all(this.opening.values())
    const finished = [...this.open.keys(), ...this.starting.keys()].flatMap((hook) => {
      const result = results.filter((r) => r.name === hook).at(-1)
      return result ? [result] : []
    })
    for (const result of finished) await this.hookFinished(result)
    await this.cancelOpen(reason)
  }

  /**
   * Completes every still-open hook check as cancelled (the session was interrupted); a hook whose
   * check run was not created yet gets one, created cancelled (one call).
   */
  async cancelOpen(reason: string): Promise<void> {
    this.holdStarts()
    await Promise.all(this.opening.values())
    for (const hook of [...this.starting.keys()]) {
      const startedAt = this.clearStart(hook)
      if (this.fallbackReason) continue
      const output = cancelledOutput(reason, this.options.sanitizer)
      await this.guard(async () => {
        await this.create({
          name: this.name(hook),
          status: 'completed',
          conclusion: 'cancelled',
          ...(startedAt ? { started_at: startedAt } : {}),
          completed_at: new Date().toISOString(),
          output,
        })
      })
    }
    for (const [hook, id] of [...this.open]) {
      this.open.delete(hook)
      if (this.fallbackReason) continue
      const output = cancelledOutput(reason, this.options.sanitizer)
      await this.guard(() =>
        this.update(id, {
          status: 'completed',
          conclusion: 'cancelled',
          completed_at: new Date().toISOString(),
          output,
        }),
      )
    }
  }

  /**
   * `proctor / policy`: one completed check run with the first 50 annotations, then one update per
   * further 50 (the API appends them). Calls: 1 + ceil((n - 50) / 50).
   */
  async policy(violations: Violation[], summary: string): Promise<void> {
    const conclusion = policyConclusion(violations)
    const left = Math.max(0, violations.length - MAX_POLICY_ANNOTATIONS)
    const annotated = left
      ? [...violations]
          .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity])
          .slice(0, MAX_POLICY_ANNOTATIONS)
      : violations
    const annotations = annotated.map((v) => violationAnnotation(v, this.options.sanitizer))
    if (this.fallbackReason) return this.annotatePolicy(annotations)
    const note = left
      ? `\n\n${left} more violation${left === 1 ? ' is' : 's are'} not annotated here (the ${MAX_POLICY_ANNOTATIONS} most severe are); the session's report.json lists every one.`
      : ''
    const output = {
      title: policyCheckTitle(violations),
      summary: cap(summary + note, CHECK_LIMITS.summary),
    }
    const per = CHECK_LIMITS.annotationsPerRequest
    let sent = 0
    const ok = await this.guard(async () => {
      const id = await this.create({
        name: this.name('policy'),
        status: 'completed',
        conclusion,
        completed_at: new Date().toISOString(),
        output: { ...output, annotations: annotations.slice(0, per) },
      })
      sent = Math.min(per, annotations.length)
      while (sent < annotations.length) {
        await this.update(id, { output: { ...output, annotations: annotations.slice(sent, sent + per) } })
        sent = Math.min(sent + per, annotations.length)
      }
    })
    if (!ok) this.annotatePolicy(annotations.slice(sent))
  }

  /**
   * One completed check run `<prefix> / <check>` with a title and summary (e.g. `proctor / batch`). One
   * API call; in fallback mode a failure becomes an error annotation instead.
   */
  async conclude(
    check: string,
    conclusion: CheckConclusion,
    output: { title: string; summary: string },
  ): Promise<void> {
    const title = cap(stripControl(this.options.sanitizer.redact(output.title)), CHECK_LIMITS.title)
    const summary = cap(output.summary, CHECK_LIMITS.summary)
    const annotate = () => {
      if (conclusion === 'success') return
      this.annotate(conclusion === 'failure' ? 'error' : 'warning', this.options.sanitizer.forLog(title), {
        title: this.name(check),
      })
    }
    if (this.fallbackReason) return annotate()
    const ok = await this.guard(async () => {
      await this.create({
        name: this.name(check),
        status: 'completed',
        conclusion,
        completed_at: new Date().toISOString(),
        output: { title, summary },
      })
    })
    if (!ok) annotate()
  }

  private annotateHook(result: StopHookResult, conclusion: CheckConclusion): void {
    if (conclusion === 'success') return
    const level: AnnotationLevel = conclusion === 'failure' ? 'error' : 'warning'
    this.annotate(level, hookAnnotationText(result, this.options.sanitizer), {
      title: this.name(result.name),
    })
  }

  private annotatePolicy(annotations: CheckAnnotation[]): void {
    for (const a of annotations) {
      this.annotate(COMMAND_LEVEL_OF[a.annotation_level], this.options.sanitizer.forLog(a.message), {
        title: `${this.name('policy')}: ${a.title}`,
        file: a.path,
        line: a.start_line,
      })
    }
  }

  /**
   * Runs one API interaction and never throws: a 403/404 switches to fallback mode for good, anything
   * else goes to onError. Returns whether it succeeded.
   */
  private async guard(task: () => Promise<void>): Promise<boolean> {
    try {
      await task()
      return true
    } catch (error) {
      const { status, message } = describeError(error)
      if (status === 403 || status === 404) {
        this.fallbackReason = `GitHub refused to write check runs (HTTP ${status}: ${message})`
        this.annotate(
          'warning',
          `proctor cannot write check runs (HTTP ${status}: ${message}); reporting as workflow annotations instead. ` +
            'Fork pull requests and tokens without `checks: write` cannot create check runs — see docs/github.md.',
          { title: 'proctor: check runs unavailable' },
        )
        return false
      }
      this.options.onError?.(error)
      return false
    }
  }

  private async create(fields: Record<string, unknown> & { name: string }): Promise<number> {
    const { octokit, owner, repo, headSha, detailsUrl, externalId } = this.options
    const created = await createOnce({
      octokit,
      send: async () => {
        this.options.onCall?.('checks.create')
        const { data } = await octokit.rest.checks.create({
          owner,
          repo,
          head_sha: headSha,
          ...(detailsUrl ? { details_url: detailsUrl } : {}),
          ...(externalId ? { external_id: externalId } : {}),
          ...fields,
          request: NO_PLUGIN_RETRY,
        })
        return data
      },
      find: () => this.findLost(fields.name),
    })
    this.written.add(created.id)
    if (created.html_url) this.pages.set(created.name, created.html_url)
    return created.id
  }

  /**
   * The check run a create whose answer was lost made: same name and external_id on the head commit, and
   * not one this object already wrote (an earlier round's run of the same hook). Without an external_id a
   * lost run cannot be told from another session's, so none is adopted and the create is sent again.
   */
  private async findLost(
    name: string,
  ): Promise<{ id: number; name: string; html_url: string | null } | null> {
    const { octokit, owner, repo, headSha, externalId } = this.options
    if (!externalId) return null
    this.options.onCall?.('checks.listForRef')
    const { data } = await octokit.rest.checks.listForRef({
      owner,
      repo,
      ref: headSha,
      check_name: name,
      filter: 'all',
      per_page: 100,
    })
    return data.check_runs.find((run) => run.external_id === externalId && !this.written.has(run.id)) ?? null
  }

  private async update(id: number, fields: Record<string, unknown>): Promise<void> {
    const { octokit, owner, repo } = this.options
    this.options.onCall?.('checks.update')
    await octokit.rest.checks.update({ owner, repo, check_run_id: id, ...fields })
  }
}
