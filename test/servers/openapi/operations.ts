// The GitHub REST operations proctor uses. The trimmed OpenAPI description in this folder holds exactly
// these (plus the components they reference); `node --import tsx scripts/trim-openapi.ts` regenerates it.
export const OPERATIONS = [
  'issues/list-comments',
  'issues/create-comment',
  'issues/update-comment',
  'checks/create',
  'checks/update',
  'checks/get',
  'checks/list-annotations',
  'checks/list-for-ref',
  'pulls/get',
  'repos/get',
  'repos/get-collaborator-permission-level',
  'users/get-authenticated',
  // Fan-out: an aggregate on workflow_run lists and downloads the triggering run's artifacts.
  'actions/list-workflow-run-artifacts',
  'actions/download-artifact',
  // The job's own page for the comment's "job" link (needs actions: read; optional).
  'actions/list-jobs-for-workflow-run-attempt',
  // A comment that starts a session gets an `eyes` reaction at once (issue or PR comment, review comment).
  'reactions/create-for-issue-comment',
  'reactions/create-for-pull-request-review-comment',
  // The ci-checks stop hook: what a branch requires, the commit's statuses, a failed job's log.
  'repos/get-branch',
  'repos/get-branch-rules',
  'repos/get-combined-status-for-ref',
  'actions/download-job-logs-for-workflow-run',
  // The conversation's write commands (docs/github.md#the-conversation): stop, restore, promote.
  'actions/cancel-workflow-run',
  'git/get-ref',
  'git/create-ref',
  'git/update-ref',
  'pulls/list',
  'pulls/create',
  'pulls/update',
] as const

export const TRIMMED_SPEC_FILE = 'api.github.com.trimmed.json'
