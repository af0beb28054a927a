// A BatchReport's GitHub sinks (mode: aggregate): the job summary, ONE sticky PR comment and ONE check
// run `proctor / batch` (success when the batch verdict is allow, failure otherwise). Like
// GitHubReporter it never throws: failures are collected and never change the verdict.
import type { BatchReport } from '../report/model.js'
import type { ReportLinks } from '../report/markdown.js'
import { batchCheckTitle, renderBatchComment, renderBatchSummary } from '../report/markdown.js'
import type { Sanitizer } from '../util/sanitize.js'
import type { GitHubOctokit } from './client.js'
import { CheckRuns, type CheckConclusion } from './checks.js'
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
  /** Job summary file (default $GITHUB_STEP_SUMMARY); null to skip. */
  summaryPath?: string | null
  emit?: (line: string) => void
  onError?: (error: ReporterError) => void
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
