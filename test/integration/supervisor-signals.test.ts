import { afterEach, describe, expect, it } from 'vitest'
import { spawnManaged } from '../../src/supervisor/process.js'
import type { ManagedProcess } from '../../src/supervisor/types.js'
import { OutputLog, fixture, processEnv, repoRoot } from './supervisor-helpers.js'

const started: ManagedProcess[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((child) => child.stop('requested')))
})

function startOwner() {
  const log = new OutputLog()
  const child = spawnManaged({
    command: { file: process.execPath, args: ['--import', 'tsx', fixture('shutdown-owner.mts')] },
    cwd: repoRoot,
    env: processEnv(),
    mode: 'pipe',
    graceMs: 1000,
    onOutput: log.onOutput,
  })
  started.push(child)
  return { child, log }
}

describe('installShutdownSignals', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('finalizes once on %s, ignores a repeat while finalizing, exits %i', async (signal, code) => {
    const { child, log } = startOwner()
    await log.next(/ready/)
    process.kill(child.pid, signal)
    await log.next(new RegExp(`finalizing ${signal}`))
    process.kill(child.pid, signal)
    const exit = await child.exited
    expect(exit.exitCode).toBe(code)
    expect(log.text.match(/finalizing/g)).toHaveLength(1)
    expect(log.text).toContain(`ignored ${signal}`)
    expect(log.text).toMatch(new RegExp(`ignored ${signal}\\s+finalized ${signal}`))
  })

  it('does not restart finalizing when SIGTERM follows SIGINT (the runner cancel sequence)', async () => {
    const { child, log } = startOwner()
    await log.next(/ready/)
    process.kill(child.pid, 'SIGINT')
    await log.next(/finalizing SIGINT/)
    process.kill(child.pid, 'SIGTERM')
    const exit = await child.exited
    expect(exit.exitCode).toBe(130)
    expect(log.text).toContain('ignored SIGTERM')
    expect(log.text.match(/finalizing/g)).toHaveLength(1)
  })
})
