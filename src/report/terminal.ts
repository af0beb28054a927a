// The terminal rendering of a SessionReport: a short block a person reads at the end of a run.
import type { SessionReport, Severity } from './model.js'
import { formatDuration } from '../util/units.js'

export interface TerminalOptions {
  color: boolean
  reportPath?: string
}

const codes = { red: 31, green: 32, yellow: 33, cyan: 36, dim: 2, bold: 1 } as const
type Tone = keyof typeof codes

export function renderSessionTerminal(report: SessionReport, opts: TerminalOptions): string {
  const paint = (tone: Tone, text: string) => (opts.color ? `\x1b[${codes[tone]}m${text}\x1b[0m` : text)
  const lines: string[] = []
  const ok = report.verdict === 'allow' && report.status === 'completed'
  const headline = `proctor: ${report.status}, verdict ${report.verdict} — exit ${report.exit_code} after ${formatDuration(report.duration_ms)}`
  lines.push(paint(ok ? 'green' : 'red', paint('bold', headline)))
  if (report.reason) lines.push(`  reason: ${report.reason}`)
  lines.push(`  session: ${report.session_id}`)

  const responses = report.events.filter((e) => e.kind === 'response')
  const undelivered = responses.filter((e) => e.data?.delivered === false).length
  const answered = responses.length - undelivered
  const detected = report.events.filter((e) =>
    ['approval_request', 'error', 'completion', 'detector'].includes(e.kind),
  )
  if (detected.length) {
    const lost = undelivered > 0 ? `, ${undelivered} answer(s) not delivered` : ''
    lines.push(`  detected: ${detected.length} event(s), ${answered} answered${lost}`)
  }

  if (report.checkpoints.length) {
    const last = report.checkpoints[report.checkpoints.length - 1]!
    lines.push(`  checkpoints: ${report.checkpoints.length} on ${last.ref} (latest ${last.sha.slice(0, 12)})`)
  } else {
    lines.push(paint('dim', '  checkpoints: none'))
  }
  if (report.pushed) {
    lines.push(
      report.pushed.ok
        ? `  pushed: ${report.pushed.remote}/${report.pushed.branch}`
        : paint('yellow', `  not pushed: ${report.pushed.reason ?? 'unknown reason'}`) +
            (report.pushed.bundle ? ` (bundle: ${report.pushed.bundle})` : ''),
    )
  }

  if (report.violations.length) {
    lines.push(paint('yellow', `  violations: ${report.violations.length}`))
    for (const v of report.violations.slice(0, 10)) {
      lines.push(`    ${paint(severityTone(v.severity), v.severity.padEnd(8))} ${v.file}: ${v.message}`)
    }
    if (report.violations.length > 10)
      lines.push(`    … ${report.violations.length - 10} more in report.json`)
  }

  if (report.stop_hooks.length) {
    lines.push(`  stop hooks (${report.rounds} round${report.rounds === 1 ? '' : 's'}):`)
    for (const h of report.stop_hooks) {
      const tone: Tone = h.verdict === 'allow' ? 'green' : h.verdict === 'block' ? 'red' : 'yellow'
      const reason = h.reason ? ` — ${firstLine(h.reason)}` : ''
      lines.push(
        `    [${h.round}] ${paint(tone, h.verdict.padEnd(5))} ${h.name} (${formatDuration(h.duration_ms)})${reason}`,
      )
    }
  }
  if (report.transcript.capped)
    lines.push(paint('yellow', '  transcript was capped (see output.transcript_max)'))
  if (opts.reportPath) lines.push(paint('dim', `  report: ${opts.reportPath}`))
  return lines.join('\n') + '\n'
}

function severityTone(s: Severity): Tone {
  return s === 'info' ? 'dim' : s === 'warning' ? 'yellow' : 'red'
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? ''
  return line.length > 160 ? line.slice(0, 157) + '…' : line
}
