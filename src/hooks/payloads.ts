// Synthetic payloads (`extra`) for `proctor hooks test <event>`; they have the same shape as real firings,
// so a hook that works here works in a session. docs/hooks.md documents each.
import type { LifecycleEvent } from '../config/schema.js'

export function syntheticExtra(event: LifecycleEvent): Record<string, unknown> {
  switch (event) {
    case 'session_start':
      return {
        command: ['example-agent', '--task', 'demo'],
        mode: 'pty',
        started_at: new Date().toISOString(),
      }
    case 'checkpoint':
      return {
        seq: 1,
        sha: '0123456789abcdef0123456789abcdef01234567',
        ref: 'refs/proctor/test-session',
        trigger: 'manual',
        files_changed: ['src/example.ts'],
        violations: 0,
      }
    case 'violation':
      return {
        checkpoint: 1,
        file: '.github/workflows/ci.yml',
        constraint: 'protected_area',
        severity: 'error',
        message: '.github/workflows/ci.yml is in a protected area',
        suggestion: 'revert the change or ask a maintainer',
      }
    case 'approval_request':
      return { rule: 'approve-edit', text: 'Do you want to make this edit?', response: 'send' }
    case 'stop':
      return { verdict: 'block', round: 1, reasons: ['tests: 1 failing test'] }
    case 'session_end':
      return {
        status: 'completed',
        verdict: 'allow',
        exit_code: 0,
        duration_ms: 1234,
        report_path: '.proctor/sessions/test-session/report.json',
      }
    case 'subagent_stop':
      return {
        task_index: 0,
        child_session_id: 'test-session-a',
        child_role: 'tester',
        child_status: 'completed',
        child_summary: 'all tests pass',
        duration_ms: 1200,
      }
    case 'subagent_batch_complete':
      return {
        child_count: 2,
        completed_count: 1,
        failed_count: 0,
        errored_count: 0,
        interrupted_count: 1,
        timeout_count: 0,
        total_duration_ms: 5000,
        children: [
          {
            task_index: 0,
            role: 'tester',
            status: 'completed',
            duration_ms: 1200,
            summary: 'all tests pass',
          },
          {
            task_index: 1,
            role: null,
            status: 'interrupted',
            duration_ms: 3800,
            summary: 'stopped by SIGINT',
          },
        ],
      }
  }
}
