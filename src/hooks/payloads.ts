// The `extra` of each lifecycle event a session fires, built by one function per event: the session calls
// them with what happened, `proctor hooks test <event>` with synthetic values (syntheticExtra), so a hook
// that works there gets the same fields in a session. docs/hooks.md documents each.
import type { LifecycleEvent } from '../config/schema.js'

export const lifecycleExtra = {
  session_start: (command: string[], cwd: string, mode: 'pty' | 'pipe') => ({ command, cwd, mode }),
  approval_request: (rule: string, text: string) => ({ rule, text }),
  /** Fired before the stop hooks run: what ended the round, not a verdict yet. */
  stop: (round: number, stopReason: string) => ({ round, stop_reason: stopReason }),
  session_end: (ending: { status: string; verdict: string; exit_code: number; reason: string | null }) => ({
    status: ending.status,
    verdict: ending.verdict,
    exit_code: ending.exit_code,
    reason: ending.reason,
  }),
}

export function syntheticExtra(event: LifecycleEvent): Record<string, unknown> {
  switch (event) {
    case 'session_start':
      return lifecycleExtra.session_start(['example-agent', '--task', 'demo'], process.cwd(), 'pty')
    case 'checkpoint':
      return {
        seq: 1,
        sha: '0123456789abcdef0123456789abcdef01234567',
        ref: 'refs/proctor/test-session',
        trigger: 'manual',
        files_changed: ['src/example.ts'],
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
      return lifecycleExtra.approval_request('approve-edit', 'Do you want to make this edit?')
    case 'stop':
      return lifecycleExtra.stop(1, 'completed')
    case 'session_end':
      return lifecycleExtra.session_end({ status: 'completed', verdict: 'allow', exit_code: 0, reason: null })
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
