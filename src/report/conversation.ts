// The conversation's sticky comment (docs/github.md#the-conversation): every round of the session, the
// checkpoint branch, and the commands proctor answered. Every text in it is someone's words: escaped like
// all report text (no mention pings, no markup), with the state as a hidden block at the end.
import type { Conversation } from '../github/conversation.js'
import type { Sanitizer } from '../util/sanitize.js'

export function renderConversation(
  state: Conversation,
  options: { marker: string; sanitizer: Sanitizer; block: string },
): string {
  const md = (text: string, max: number) => options.sanitizer.forMarkdown(text, max)
  const last = state.rounds[state.rounds.length - 1]
  const heading = last
    ? `### 💬 proctor · round ${last.round} ${last.status === null ? 'running' : `${md(last.status, 30)} · ${md(last.verdict ?? '—', 30)}`}`
    : '### 💬 proctor'
  const lines = [options.marker, heading, '']
  if (state.session || state.branch)
    lines.push(
      `<sub>${state.session ? `session \`${md(state.session, 200)}\`` : ''}${state.branch ? ` · branch \`${md(state.branch, 250)}\`` : ''}` +
        `${state.checkpoints.length ? ` · ${state.checkpoints.length} checkpoints` : ''}${state.promotable ? ' · ready to promote' : ''}</sub>`,
      '',
    )
  if (state.rounds.length) {
    lines.push(
      '| round | asked | by | status | verdict | last checkpoint |',
      '| --- | --- | --- | --- | --- | --- |',
    )
    for (const r of state.rounds) {
      const asked = `${r.kind === 'task' ? '' : `${r.kind}: `}${r.text}`
      const link = r.url && /^https:\/\/[^\s()<>]+$/.test(r.url) ? r.url : null
      const by = link ? `[${md(`@${r.author}`, 100)}](<${link}>)` : md(`@${r.author}`, 100)
      const at = r.head ? `\`${r.head.slice(0, 12)}\` (${state.checkpoints.indexOf(r.head) + 1})` : '—'
      lines.push(
        `| ${r.round} | ${md(asked, 300)} | ${by} | ${r.status === null ? '🔄 running' : md(r.status, 30)} | ${md(r.verdict ?? '—', 30)} | ${at} |`,
      )
    }
    lines.push('')
  }
  if (state.log.length) {
    lines.push('<details><summary>Commands</summary>', '')
    for (const entry of state.log)
      lines.push(`- ${md(`@${entry.author}`, 100)}: \`${md(entry.said, 200)}\` → ${md(entry.answer, 500)}`)
    lines.push('', '</details>', '')
  }
  lines.push(
    '<sub>`/proctor continue <feedback>` · `retry` · `stop` · `restore <n>` · `promote` · `help`</sub>',
    options.block,
  )
  return lines.join('\n')
}
