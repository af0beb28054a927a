// Issue 13, item 5: one detect regex must not stop the supervisor.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { ConfigError } from '../../src/config/errors.js'
import { loadConfig } from '../../src/config/load.js'
import { OutputPipeline } from '../../src/supervisor/output.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'proctor-regex-'))
  dirs.push(dir)
  return dir
}

function pipeline(match: string, flags?: string) {
  const dir = tempDir()
  return new OutputPipeline({
    mode: 'pipe',
    transcriptPath: join(dir, 'transcript.log'),
    transcriptMax: 1 << 20,
    rules: [{ name: 'hostile', match, flags, kind: 'approval_request', response: 'notify' } as never],
  })
}

/** How late a 50 ms timer fires while `work` runs: the supervisor's timeouts share this thread. */
async function timerLateness(work: () => Promise<unknown>): Promise<number> {
  const armed = performance.now()
  const fired = new Promise<number>((resolve) =>
    setTimeout(() => resolve(performance.now() - armed - 50), 50),
  )
  await work()
  return fired
}

describe('catastrophic detect patterns (issue 13.5)', () => {
  it('config load rejects (a+)+$ with the file, the line and a fix', async () => {
    const dir = tempDir()
    const file = join(dir, 'proctor.yml')
    writeFileSync(file, 'agent:\n  command: [claude]\ndetect:\n  - name: frozen\n    match: "(a+)+$"\n')
    const error = await loadConfig({ file, cwd: dir }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    const message = (error as Error).message
    expect(message).toMatch(/proctor\.yml:5/)
    expect(message).toMatch(/backtrack catastrophically/)
    expect(message).toMatch(/a\+\$/)
  })

  it('a pattern the checker lets through still matches a 41-character line in linear time', async () => {
    const output = pipeline('(a|a)*b')
    const events: string[] = []
    output.on('event', (e) => events.push(e.rule))
    const late = await timerLateness(async () => {
      output.write(Buffer.from(`${'a'.repeat(41)}!\n`))
      await output.flush()
    })
    expect(late).toBeLessThan(1000)
    output.write(Buffer.from('still works: aab\n'))
    await output.flush()
    expect(events).toEqual(['hostile'])
    await output.close()
  })

  // All pass the load-time check, and V8's linear engine cannot run them: on one thread each match
  // backtracks for seconds on these short lines (and for hours on a 60-character one).
  for (const [what, pattern, length, flags] of [
    ['back-reference', String.raw`(a|aa)+\1b`, 39],
    ['lookahead', '((?=a)a|a)*b', 28],
    ['case-insensitive', '(a|a)*b', 28, 'i'],
  ] as const) {
    it(`a ${what} pattern (${pattern}) is cut off on its first slow line and disabled; timers fire on time`, async () => {
      const output = pipeline(pattern, flags)
      const slow: string[] = []
      output.on('slow_rule', (rule) => slow.push(rule))
      // An ordinary line first: the worker started with the session is up, as it is by the agent's output.
      output.write(Buffer.from('starting\n'))
      await output.flush()
      const late = await timerLateness(async () => {
        output.write(Buffer.from(`${'a'.repeat(length)}!\n`))
        await output.flush()
      })
      expect(slow).toEqual(['hostile'])
      expect(late).toBeLessThan(1000)
      // Disabled: the next hostile line costs nothing and raises no second warning.
      const later = await timerLateness(async () => {
        output.write(Buffer.from(`${'a'.repeat(80)}!\n`))
        await output.flush()
      })
      expect(later).toBeLessThan(1000)
      expect(slow).toEqual(['hostile'])
      await output.close()
    })
  }

  it('a back-reference rule still matches ordinary lines (it runs on the worker)', async () => {
    const output = pipeline(String.raw`^(\w+) \1$`)
    const events: string[] = []
    output.on('event', (e) => events.push(e.match))
    output.write(Buffer.from('hello world\nagain again\n'))
    await output.flush()
    expect(events).toEqual(['again again'])
    await output.close()
  })
})
