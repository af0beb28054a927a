// Typing text into an interactive agent so that it is submitted, not just shown in its input box. TUIs
// such as Claude Code take a single long write for a paste and turn its Enter into a newline, so the text
// goes in as a bracketed paste when the agent asked for that (ESC[?2004h), and Enter follows as its own
// write after a short settle. Then proctor waits for the agent to react — it starts working (a detector of
// kind "working"), or at least prints something — and presses Enter again if it did not, a bounded number
// of times. What happened is returned for the report.
import type { TypingConfig } from '../config/schema.js'
import type { OutputPipeline } from './output.js'

export interface TypingTarget {
  write(data: string): void
  /** The session is decided (AgentRun.decided): no more Enters are pressed, the agent is being ended. */
  readonly decided?: boolean
}

export interface TypingResult {
  /** The text went in wrapped in ESC[200~ … ESC[201~. */
  bracketed: boolean
  /** Enter presses (1 when the first was taken). */
  attempts: number
  /** The agent showed activity after an Enter; false when every attempt went unanswered. */
  reacted: boolean
}

export const PASTE_START = '\x1b[200~'
export const PASTE_END = '\x1b[201~'

/** `text` must already be one line without control characters (see typedPrompt). */
export async function typeAndSubmit(
  target: TypingTarget,
  pipeline: OutputPipeline,
  text: string,
  typing: TypingConfig,
  signal?: AbortSignal,
): Promise<TypingResult> {
  pipeline.markTyped()
  const bracketed = typing.paste === 'always' || (typing.paste === 'auto' && pipeline.bracketedPaste)
  target.write(bracketed ? `${PASTE_START}${text}${PASTE_END}` : text)
  await delay(typing.submit_delay, signal)
  const activity = () => (pipeline.detector.hasWorkingRules ? pipeline.detector.workingSeen : pipeline.bytes)
  let attempts = 0
  while (attempts < typing.submit_attempts && !signal?.aborted && !target.decided) {
    const before = activity()
    attempts++
    target.write('\r')
    if (await until(pipeline, () => activity() !== before, typing.confirm_timeout, signal))
      return { bracketed, attempts, reacted: true }
  }
  return { bracketed, attempts, reacted: false }
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done, { once: true })
  })
}

/** Resolves true as soon as `test` holds after a scan of the output, false after `timeoutMs`. */
function until(
  pipeline: OutputPipeline,
  test: () => boolean,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<boolean> {
  if (test()) return Promise.resolve(true)
  return new Promise((resolve) => {
    const finish = (value: boolean) => {
      clearTimeout(timer)
      pipeline.off('scanned', check)
      signal?.removeEventListener('abort', abort)
      resolve(value)
    }
    const check = () => {
      if (test()) finish(true)
    }
    const abort = () => finish(false)
    const timer = setTimeout(() => finish(test()), timeoutMs)
    pipeline.on('scanned', check)
    signal?.addEventListener('abort', abort, { once: true })
  })
}
