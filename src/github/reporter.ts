// The one facade the action uses: the sticky comment, check runs and the job summary behind five calls.
// It never throws — GitHub is a sink, not a dependency: failures go to onError, are kept in `errors`,
// and never change the verdict. Every API call is counted (the API budget in docs/github.md).
import type { SessionReport, StopHookResult } from '../report/model.js'
import type { CheckRunLink, ReportLinks, TaskNote } from '../report/markdown.js'
import { renderJobSummary, renderSessionComment } from '../report/markdown.js'
import { policyCheckSummary } from '../report/check-run.js'
import type { Sanitizer } from '../util/sanitize.js'
import type { GitHubOctokit } from './client.js'
import { describeError } from './client.js'
import { CheckRuns } from './checks.js'
import { StickyComment, type CommentMode } from './comment.js'
import { canWrite, checkRunSha, linksFor, type ActionsContext } from './context.js'
import { findJobUrl } from './job.js'
import { appendJobSummary, replaceJobSummary, type SummaryWriteResult } from './summary.js'

/**
 * A GitHub call that failed: kept (sanitized) for the result and passed to `onError`. Reporting never
 * throws — GitHub is a sink — so this is where every failure ends up.
 */
export function recordFailure(
  errors: ReporterError[],
  operation: string,
  error: unknown,
  options: { sanitizer: Sanitizer; onError?: (error: ReporterError) => void },
): void {
  const { status, message } = describeError(error)
  const entry = { operation, status, message: options.sanitizer.forLog(message) }
  errors.push(entry)
  try {
    options.onError?.(entry)
  } catch {
    // A faulty callback must not break reporting.
  }
}

export interface ReporterError {
  operation: string
  status: number | null
  message: string
}

export interface GitHubReporterOptions {
  octokit: GitHubOctokit
  token: string
  context: ActionsContext
  /** The expanded session key (see expandKey). */
  key: string
  /** The session id, stored on check runs so the post step adopts only this session's open checks. */
  sessionId?: string
  comment: CommentMode
  checks: boolean
  /**
   * `github.publish`: with `aggregate` this session writes neither comment nor check runs (the
   * `mode: aggregate` job publishes once for every session of the run); default `each`.
   */
  publish?: 'each' | 'aggregate'
  sanitizer: Sanitizer
  links?: ReportLinks
  /** The task that started the session (a comment or a label), shown in the sticky comment. */
  task?: TaskNote | null
  /** Where the comment goes without a pull request: the issue a task came from. */
  issueNumber?: number | null
  /** Minimum spacing of progress edits, and how long each waits (default 10 s). */
  editIntervalMs?: number
  /** How long a stop hook runs before its check run is created in_progress (default 5 s, see checks.ts). */
  hookInProgressAfterMs?: number
  /** No API writes at all (default: true on fork PRs). Check results become workflow annotations. */
  readOnly?: boolean
  /** Job summary file (default $GITHUB_STEP_SUMMARY); null to skip. */
  summaryPath?: string | null
  /** Takes annotation command lines instead of @actions/core (tests). */
  emit?: (line: string) => void
  onError?: (error: ReporterError) => void
  /**
   * Something worth a log line that is not a failure: why the header links the workflow run rather than
   * the job (a token without `actions: read`).
   */
  onNote?: (message: string) => void
  /** Look the job's page up in the run's job list for the comment (default true; see job.ts). */
  findJob?: boolean
  /** Check runs written by someone else (the verify job writes one per hook over all sessions), linked
   * from the header when this reporter writes none itself (`checks: false`). */
  checkRunLinks?: CheckRunLink[]
}

export interface FinishResult {
  commentUrl: string | null
  summary: SummaryWriteResult | null
  /** Why check runs were replaced by workflow annotations, if they were. */
  checksFallback: string | null
  errors: ReporterError[]
  calls: number
}

export class GitHubReporter {
  readonly errors: ReporterError[] = []
  /** API calls by operation (`issues.createComment`, `checks.update`...). */
  readonly calls: Record<string, number> = {}
  private readonly comment: StickyComment | null
  private readonly checkRuns: CheckRuns | null
  /** Grows a `job` link once the run's job list named this job (before the first comment). */
  private links: ReportLinks
  private jobLookup: Promise<void> | null = null
  private readonly onCall: (operation: string) => void
  private readonly running = new Set<string>()
  private last: SessionReport | null = null
  /** Check-run calls in order: a hook that finishes before its in_progress run exists must not make a second one. */
  private checksQueue: Promise<unknown> = Promise.resolve()
  /** finish() has begun: late hook events may still complete their check run but never reopen one or edit progress. */
  private finishing = false

  constructor(private readonly options: GitHubReporterOptions) {
    const ctx = options.context
    const readOnly = options.readOnly ?? !canWrite(ctx)
    const elsewhere = options.publish === 'aggregate'
    const onCall = (operation: string) => {
      this.calls[operation] = (this.calls[operation] ?? 0) + 1
    }
    this.onCall = onCall
    this.links = options.links ?? linksFor(ctx)
    // An issue's conversation (a task from a comment or label) has no PR: the comment goes on the issue.
    const issueNumber = ctx.pr?.number ?? options.issueNumber ?? null
    this.comment =
      issueNumber !== null && options.comment !== 'off' && !readOnly && !elsewhere
        ? new StickyComment({
            octokit: options.octokit,
            owner: ctx.owner,
            repo: ctx.repo,
            issueNumber,
            key: options.key,
            mode: options.comment,
            token: options.token,
            onCall,
            onError: (error) => this.fail('comment', error),
            ...(options.editIntervalMs !== undefined ? { minEditIntervalMs: options.editIntervalMs } : {}),
          })
        : null
    const sha = checkRunSha(ctx)
    this.checkRuns =
      options.checks && sha && !elsewhere
        ? new CheckRuns({
            octokit: options.octokit,
            owner: ctx.owner,
            repo: ctx.repo,
            headSha: sha,
            sanitizer: options.sanitizer,
            detailsUrl: this.links.jobSummary,
            readOnly,
            onCall,
            onError: (error) => this.fail('checks', error),
            ...(options.sessionId ? { externalId: options.sessionId } : {}),
            ...(options.emit ? { emit: options.emit } : {}),
            ...(options.hookInProgressAfterMs !== undefined
              ? { inProgressAfterMs: options.hookInProgressAfterMs }
              : {}),
          })
        : null
  }

  /** Total API calls so far. */
  get callCount(): number {
    return Object.values(this.calls).reduce((a, b) => a + b, 0)
  }

  get commentUrl(): string | null {
    return this.comment?.url ?? null
  }

  /**
   * The comment with the progress checklist, once the session has run for an edit interval (a session
   * that ends sooner gets its comment once, final). The job's page is looked up now, while nothing waits.
   */
  async start(report: SessionReport): Promise<void> {
    if (this.finishing) return
    this.last = report
    await this.findJob()
    await this.publish(report, false)
  }

  /** A throttled progress edit (at most one per interval; the latest report wins). */
  async progress(report: SessionReport): Promise<void> {
    if (this.finishing) return
    this.last = report
    await this.publish(report, false)
  }

  async hookStarted(name: string): Promise<void> {
    if (this.finishing) return
    this.running.add(name)
    // In the check-run queue, so a finish of the same hook's earlier round is written first.
    await this.inOrder(async () => this.checkRuns?.hookStarted(name))
    if (this.last) await this.publish(this.last, false)
  }

  async hookFinished(result: StopHookResult): Promise<void> {
    this.running.delete(result.name)
    await this.inOrder(() => this.checkRuns?.hookFinished(result))
    if (this.last && !this.finishing) {
      const known = this.last.stop_hooks.some((r) => r.name === result.name && r.round === result.round)
      this.last = known ? this.last : { ...this.last, stop_hooks: [...this.last.stop_hooks, result] }
      await this.publish(this.last, false)
    }
  }

  /**
   * The post step's way back in: takes over this session's `proctor / *` check runs still in_progress
   * (the main step was killed), so finish() completes them. The comment is found again by its marker.
   * Never throws; returns the hooks adopted.
   */
  async adoptOpenChecks(): Promise<string[]> {
    return (await this.inOrder(() => this.checkRuns?.adoptOpen())) ?? []
  }

  /** Job summary, final comment, policy check, open checks settled (cancelled when interrupted). Never throws. */
  async finish(report: SessionReport): Promise<FinishResult> {
    this.finishing = true
    // A progress render still waiting would land while the check runs are written, only to be replaced.
    this.comment?.cancelPending()
    this.last = report
    let summary: SummaryWriteResult | null = null
    const summaryPath =
      this.options.summaryPath === undefined ? process.env.GITHUB_STEP_SUMMARY : this.options.summaryPath
    // First, from what is known now: a file, no API call, so it is there whatever GitHub does next.
    const renderSummary = () =>
      renderJobSummary(report, {
        links: this.links,
        sanitizer: this.options.sanitizer,
        checkRuns: this.checkRunLinks(),
      })
    if (summaryPath) {
      try {
        summary = appendJobSummary(renderSummary(), summaryPath)
      } catch (error) {
        this.fail('summary', error)
      }
    }
    const checkRuns = this.checkRuns
    const linked = JSON.stringify([this.checkRuns?.links(), this.links.job])
    if (checkRuns) {
      // In the check-run queue, behind any hook event still in flight. Interrupted: a hook in flight
      // never finished. Otherwise open checks are adopted ones whose result the report may already hold.
      const results =
        report.status === 'interrupted' || report.status === 'timeout' || report.status === 'budget'
          ? []
          : report.stop_hooks
      await this.inOrder(async () => {
        await checkRuns.settleOpen(results, report.reason ?? `session ${report.status}`)
        await checkRuns.policy(report.violations, policyCheckSummary(report))
      })
    }
    // A post step that never saw start(): the job's page for the final header.
    if (this.comment) await this.findJob()
    // The policy check (and any hook's) exists now: the summary is written again with its link.
    if (
      summaryPath &&
      summary?.written &&
      JSON.stringify([this.checkRuns?.links(), this.links.job]) !== linked
    ) {
      try {
        summary = replaceJobSummary(summary, renderSummary(), summaryPath)
      } catch (error) {
        this.fail('summary', error)
      }
    }
    // Last, so its header links every check run (progress stopped when finish began).
    await this.publish(report, true)
    await this.comment?.idle()
    return {
      commentUrl: this.commentUrl,
      summary,
      checksFallback: this.checkRuns?.fallback ?? null,
      errors: [...this.errors],
      calls: this.callCount,
    }
  }

  private async publish(report: SessionReport, final: boolean): Promise<void> {
    if (!this.comment) return
    // Progress renders a snapshot: once finish() began, the final render is the only one that may land.
    if (!final && this.finishing) return
    const { key, sanitizer } = this.options
    const progress = final ? false : { running_hooks: [...this.running] }
    try {
      await this.comment.publish(
        (maxChars) =>
          renderSessionComment(report, {
            key,
            links: this.links,
            sanitizer,
            progress,
            maxChars,
            checkRuns: this.checkRunLinks(),
            task: this.options.task ?? null,
          }),
        { final },
      )
    } catch (error) {
      this.fail('comment', error)
    }
  }

  /**
   * Once per reporter, and only when there is a comment to link it from: the job's page from the run's
   * job list. A token without `actions: read` (or no match) keeps the workflow run's page, with a note.
   */
  private findJob(): Promise<void> {
    this.jobLookup ??= (async () => {
      if (!this.comment || this.links.job || this.options.findJob === false) return
      const found = await findJobUrl(this.options.octokit, this.options.context, this.onCall)
      if (found.url) this.links = { ...this.links, job: found.url }
      else if (found.why)
        this.options.onNote?.(`the comment links the workflow run, not the job: ${found.why}`)
    })().catch(() => undefined)
    return this.jobLookup
  }

  private checkRunLinks(): CheckRunLink[] {
    return this.checkRuns?.links() ?? this.options.checkRunLinks ?? []
  }

  private inOrder<T>(task: () => Promise<T> | undefined): Promise<T | undefined> {
    const run = this.checksQueue.then(task, task)
    this.checksQueue = run.catch(() => {})
    return run
  }

  private fail(operation: string, error: unknown): void {
    recordFailure(this.errors, operation, error, this.options)
  }
}
