// A BatchReport's GitHub sinks (mode: aggregate): the job summary, ONE sticky PR comment and ONE check
// run `proctor / batch` (success when the batch verdict is allow, failure otherwise) — and, with
// `github.publish: aggregate`, the check runs the sessions left to it: one `proctor / <hook>` per hook
// over every session and one `proctor / policy` over all their violations. Like GitHubReporter it never
// throws: failures are collected and never change the verdict.
import type { BatchReport, SessionReport } from '../report/model.js'
import type { ReportLinks } from '../report/markdown.js'
import { batchCheckTitle, renderBatchComment, renderBatchSummary } from '../report/markdown.js'
import type { Sanitizer } from '../util/sanitize.js'
import type { GitHubOctokit } from './client.js'
import { verifiedPolicySummary } from '../report/check-run.js'
import { CheckRuns, mergeHookResults, type CheckConclusion } from './checks.js'
import { StickyComment, type CommentMode } from './comment.js'
import { recordFailure, type ReporterError } from './reporter.js'
import { appendJobSummary, type SummaryWriteResult } from './summary.js'

export const BATCH_CHECK = 'batch'

export interface BatchReporterOptions {
  octokit: GitHubOctokit
  token: string
  owner: string
  repo: string
  /** The PR to comment on; null: no comment. */
  prNumber: number | null
  /** The commit the check run attaches to; null: no check run. */
  headSha: string | null
  /** The comment key (marker). */
  key: string
  comment: CommentMode
  checks: boolean
  sanitizer: Sanitizer
  links: ReportLinks
  /** No API writes (fork PR token). */
  readOnly?: boolean
  /**
   * `github.publish: aggregate`: the sessions wrote no check runs; these are written here once for all
   * of them: `proctor / <hook>` for each hook named (failed when it did not allow in every session) and
   * `proctor / policy` over every report's violations.
   */
  sessionChecks?: SessionChecks | null
  /** Job summary file (default $GITHUB_STEP_SUMMARY); null to skip. */
  summaryPath?: string | null
  emit?: (line: string) => void
  onError?: (error: ReporterError) => void
}

/** What `github.publish: aggregate` leaves to the aggregate job: hooks, the reports read, the ones lost. */
export interface SessionChecks {
  hooks: string[]
  reports: SessionReport[]
  /** Sessions whose report is missing or malformed (by name): every hook check fails for them. */
  lost: string[]
}

export interface BatchPublishResult {
  commentUrl: string | null
  checkConclusion: CheckConclusion | null
  summary: SummaryWriteResult | null
  errors: ReporterError[]
  calls: Record<string, number>
}

export function batchConclusion(batch: BatchReport): CheckConclusion {
  return batch.verdict === 'allow' ? 'success' : 'failure'
}

export class BatchReporter {
  readonly errors: ReporterError[] = []
  readonly calls: Record<string, number> = {}

  constructor(private readonly options: BatchReporterOptions) {}

  async publish(batch: BatchReport): Promise<BatchPublishResult> {
    const { options } = this
    const onCall = (operation: string) => void (this.calls[operation] = (this.calls[operation] ?? 0) + 1)
    const summary = this.writeSummary(batch)

    let comment: StickyComment | null = null
    if (options.prNumber !== null && options.comment !== 'off' && !options.readOnly) {
      comment = new StickyComment({
        octokit: options.octokit,
        owner: options.owner,
        repo: options.repo,
        issueNumber: options.prNumber,
        key: options.key,
        mode: options.comment,
        token: options.token,
        onCall,
        onError: (error) => this.fail('comment', error),
      })
      const { key, links, sanitizer } = options
      await comment
        .publish((maxChars) => renderBatchComment(batch, { key, links, sanitizer, maxChars }), {
          final: true,
        })
        .catch((error: unknown) => this.fail('comment', error))
    }

    let checkConclusion: CheckConclusion | null = null
    if (options.checks && options.headSha) {
      checkConclusion = batchConclusion(batch)
      const checks = new CheckRuns({
        octokit: options.octokit,
        owner: options.owner,
        repo: options.repo,
        headSha: options.headSha,
        sanitizer: options.sanitizer,
        detailsUrl: options.links.jobSummary,
        readOnly: options.readOnly ?? false,
        onCall,
        onError: (error) => this.fail('checks', error),
        ...(options.emit ? { emit: options.emit } : {}),
      })
      if (options.sessionChecks) await this.sessionChecks(checks, options.sessionChecks)
      await checks.conclude(BATCH_CHECK, checkConclusion, {
        title: batchCheckTitle(batch),
        summary: renderBatchSummary(batch, {
          links: options.links,
          sanitizer: options.sanitizer,
          maxBytes: 60_000,
        }),
      })
    }
    return {
      commentUrl: comment?.url ?? null,
      checkConclusion,
      summary,
      errors: [...this.errors],
      calls: this.calls,
    }
  }

  /**
   * A session whose report is missing or malformed ran no hook that can be told: every hook check fails
   * for it, so a lost leg never passes a required check.
   */
  private async sessionChecks(checks: CheckRuns, sessions: SessionChecks): Promise<void> {
    const { hooks, reports, lost } = sessions
    for (const hook of hooks) {
      const per = [
        ...reports.map((report) => ({
          session: report.session_id,
          result: report.stop_hooks.filter((r) => r.name === hook).at(-1) ?? null,
        })),
        ...lost.map((session) => ({ session, result: null })),
      ]
      await checks.hookFinished(
        mergeHookResults(hook, per, per.length > 1, 'the hook has no result in this session'),
      )
    }
    const violations = reports.flatMap((report) => report.violations)
    const by = `the ${reports.length} session report${reports.length === 1 ? '' : 's'} of this run`
    await checks.policy(violations, verifiedPolicySummary(violations, reports.length, by))
  }

  private writeSummary(batch: BatchReport): SummaryWriteResult | null {
    const path =
      this.options.summaryPath === undefined ? process.env.GITHUB_STEP_SUMMARY : this.options.summaryPath
    if (!path) return null
    try {
      return appendJobSummary(
        renderBatchSummary(batch, { links: this.options.links, sanitizer: this.options.sanitizer }),
        path,
      )
    } catch (error) {
      this.fail('summary', error)
      return null
    }
  }

  private fail(operation: string, error: unknown): void {
    recordFailure(this.errors, operation, error, this.options)
  }
}
