// Report fixtures for the markdown and GitHub tests (shapes from src/report/model.ts).
import type { BatchReport, SessionReport, Violation } from '../../src/report/model.js'
import type { ReportLinks } from '../../src/report/markdown.js'

export const SHA1 = '1111111111111111111111111111111111111111'
export const SHA2 = '2222222222222222222222222222222222222222'
export const BASE = 'abcdefabcdefabcdefabcdefabcdefabcdefabcd'

export const links: ReportLinks = {
  commit: (sha) => `https://github.com/acme/widgets/commit/${sha}`,
  compare: (a, b) => `https://github.com/acme/widgets/compare/${a}...${b}`,
  file: (p, sha) => `https://github.com/acme/widgets/blob/${sha}/${p}`,
  jobSummary: 'https://github.com/acme/widgets/actions/runs/42',
  branch: (name) => ({
    tree: `https://github.com/acme/widgets/tree/${name}`,
    compare: `https://github.com/acme/widgets/compare/main...${name}`,
    createPullRequest: `https://github.com/acme/widgets/compare/main...${name}?expand=1`,
  }),
}

export function violation(i: number, over: Partial<Violation> = {}): Violation {
  return {
    checkpoint: 1,
    file: `src/generated/file-${i}.ts`,
    constraint: 'forbidden_area',
    severity: i % 3 === 0 ? 'error' : 'warning',
    message: `file-${i}.ts is in a forbidden area`,
    suggestion: 'move it under src/',
    ...over,
  }
}

export function sessionReport(over: Partial<SessionReport> = {}): SessionReport {
  return {
    schema: 1,
    session_id: 'gh-42-1-build',
    status: 'completed',
    verdict: 'allow',
    exit_code: 0,
    signal: null,
    reason: null,
    started_at: '2026-01-01T00:00:00.000Z',
    ended_at: '2026-01-01T00:03:12.000Z',
    duration_ms: 192_000,
    command: ['claude', '-p', 'Fix the failing test'],
    cwd: '/repo',
    mode: 'pty',
    events: [
      { at: 0, kind: 'session_start', message: 'started' },
      { at: 30_000, kind: 'checkpoint', name: '1', message: 'checkpoint 1' },
      { at: 90_000, kind: 'checkpoint', name: '2', message: 'checkpoint 2' },
      { at: 150_000, kind: 'stop_hooks', message: 'round 1' },
      { at: 190_000, kind: 'exit', message: 'exit 0' },
    ],
    checkpoints: [
      {
        seq: 1,
        sha: SHA1,
        ref: 'refs/proctor/s',
        trigger: 'interval',
        files_changed: ['src/a.ts'],
        violations: 1,
        skipped: [],
        created_at: '2026-01-01T00:00:30.000Z',
      },
      {
        seq: 2,
        sha: SHA2,
        ref: 'refs/proctor/s',
        trigger: 'final',
        files_changed: ['src/a.ts', 'src/b.ts'],
        violations: 0,
        skipped: [],
        created_at: '2026-01-01T00:01:30.000Z',
      },
    ],
    violations: [violation(3)],
    stop_hooks: [
      { name: 'tests', verdict: 'allow', reason: null, exit_code: 0, duration_ms: 12_000, round: 1 },
    ],
    rounds: 1,
    pushed: {
      ok: true,
      remote: 'origin',
      branch: 'proctor/gh-42-1-build',
      sha: SHA2,
      reason: null,
      bundle: null,
    },
    transcript: { path: '.proctor/sessions/s/transcript.log', bytes: 2048, capped: false },
    output_tail: 'All tests passed\n',
    ci: { sha: BASE, run_id: 42 },
    ...over,
  }
}

export function batchReport(children: number): BatchReport {
  return {
    schema: 1,
    batch_id: 'b1',
    started_at: '2026-01-01T00:00:00.000Z',
    ended_at: '2026-01-01T00:10:00.000Z',
    total_duration_ms: 600_000,
    child_count: children,
    completed_count: children - 1,
    failed_count: 1,
    errored_count: 0,
    interrupted_count: 0,
    timeout_count: 0,
    verdict: 'block',
    children: Array.from({ length: children }, (_, i) => ({
      task_index: i,
      name: `task-${i}`,
      role: i % 2 ? 'tester' : null,
      status: i === 0 ? ('failed' as const) : ('completed' as const),
      duration_ms: 1000 * i,
      summary: `did thing ${i} @someone #${i + 1}`,
      checkpoint_ref: `refs/proctor/b1-${i}`,
      violation_count: i % 4,
      report_path: null,
    })),
    problems: [{ source: 'reports/x.json', message: 'not valid JSON' }],
  }
}
