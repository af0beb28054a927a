// The action's job log lines that need no session to show: a large first checkpoint's progress.
import { describe, expect, it } from 'vitest'
import { ActionLog } from '../../src/action/log.js'
import { createSanitizer } from '../../src/util/sanitize.js'

describe('the action log', () => {
  it('says how far a large first checkpoint has got, as one plain line', () => {
    let text = ''
    const log = new ActionLog({
      sanitizer: createSanitizer({ secrets: [] }),
      out: { write: (c) => (text += String(c)) },
    })
    log.checkpointProgress({ seq: 1, done: 6000, total: 13_711, elapsed_ms: 12_000 })
    log.checkpointProgress({ seq: 1, done: 13_711, total: 13_711, elapsed_ms: 26_000 })
    expect(text).toBe(
      'proctor: checkpoint 1: 6,000 / 13,711 files (43%)\nproctor: checkpoint 1: 13,711 / 13,711 files (100%)\n',
    )
  })
})
