import { afterEach, describe, expect, it } from 'vitest'
import { AgentRun, type AgentExit, type AgentRunOptions } from '../../src/supervisor/agent-run.js'
import { SpawnError } from '../../src/supervisor/types.js'
import { fixture, processEnv, repoRoot } from './supervisor-helpers.js'

const runs: AgentRun[] = []
afterEach(async () => {
  await Promise.all(runs.splice(0).map((run) => (run.pid === undefined ? undefined : run.stop('requested'))))
})

function agentRun(
  command: AgentRunOptions['spawn']['command'],
  extra: Omit<AgentRunOptions, 'spawn'> = {},
  mode: 'pty' | 'pipe' = 'pty',
) {
  const run = new AgentRun({
    spawn: { command, cwd: repoRoot, env: processEnv(), mode, graceMs: 1000, label: 'agent' },
    ...extra,
  })
  runs.push(run)
  const events: string[] = []
  let text = ''
  for (const name of ['spawn', 'timeout', 'idle_timeout', 'output_cap', 'exit'] as const)
    run.on(name, () => events.push(name))
  run.on('output', (chunk) => (text += chunk.toString()))
  return { run, events, output: () => text }
}

describe('AgentRun', () => {
  it('runs the agent to completion and reports how it went', async () => {
    const { run, events, output } = agentRun({ file: fixture('exit-with.sh'), args: ['3'] })
    run.start()
    const exit = await run.finished
    expect(exit).toMatchObject({ exitCode: 3, signal: null, cause: null, stoppedBy: null, killed: false })
    expect(exit.outputBytes).toBe(Buffer.byteLength(output()))
    expect(exit.endedAt.getTime()).toBeGreaterThanOrEqual(exit.startedAt.getTime())
    expect(events).toEqual(['spawn', 'exit'])
  })

  it('stops the agent at the total timeout and records the reason', async () => {
    const { run, events } = agentRun(
      { file: fixture('ticker.sh'), args: [] },
      { totalTimeoutMs: 800, idleTimeoutMs: 10_000 },
    )
    const exit = await run.start().finished
    expect(exit).toMatchObject({ cause: 'timeout', stoppedBy: 'timeout', signal: 'SIGTERM' })
    expect(events).toEqual(['spawn', 'timeout', 'exit'])
  })

  it('stops a silent agent at the idle timeout', async () => {
    const { run, events, output } = agentRun(
      { file: fixture('silent.sh'), args: [] },
      { idleTimeoutMs: 500, totalTimeoutMs: 60_000 },
    )
    const exit = await run.start().finished
    expect(output()).toContain('started')
    expect(exit.cause).toBe('idle_timeout')
    expect(events).toEqual(['spawn', 'idle_timeout', 'exit'])
  })

  it('does not count paused time as idle', async () => {
    const { run, events } = agentRun({ file: fixture('silent.sh'), args: [] }, { idleTimeoutMs: 400 })
    run.start()
    run.pause()
    // Long past the idle limit while paused: no idle timeout may fire.
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(events).toEqual(['spawn'])
    run.resume()
    expect((await run.finished).cause).toBe('idle_timeout')
  })

  it('stops an agent that exceeds the output cap', async () => {
    const { run, events } = agentRun({ file: 'yes', args: ['proctor'] }, { outputCapBytes: 200_000 }, 'pipe')
    const exit = await run.start().finished
    expect(exit.cause).toBe('output_cap')
    expect(exit.outputBytes).toBeGreaterThan(200_000)
    expect(events.filter((e) => e === 'output_cap')).toHaveLength(1)
  })

  it('finalizes exactly once when exit, timeouts and a signal race', async () => {
    for (let round = 0; round < 10; round++) {
      const { run, events } = agentRun(
        { file: fixture(round % 2 ? 'exit-with.sh' : 'silent.sh'), args: ['0'] },
        { totalTimeoutMs: 1, idleTimeoutMs: 1 },
      )
      const exits: AgentExit[] = []
      run.on('exit', (exit) => exits.push(exit))
      run.start()
      const [viaStop, viaSecondStop] = await Promise.all([run.stop('signal'), run.stop('shutdown')])
      const finished = await run.finished
      expect(exits).toHaveLength(1)
      expect(viaStop).toBe(finished)
      expect(viaSecondStop).toBe(finished)
      expect(exits[0]).toBe(finished)
      expect(events.filter((e) => e === 'exit')).toHaveLength(1)
      // Whoever stopped first is the recorded cause; a later cause never overwrites it.
      expect([null, 'signal', 'timeout', 'idle_timeout']).toContain(finished.cause)
    }
  })

  it('gives an output sink every byte before the exit event', async () => {
    const received: Buffer[] = []
    let flushedBeforeExit = false
    const { run } = agentRun(
      { file: 'seq', args: ['1', '20000'] },
      {
        output: {
          // The chunk is lent (read into a reused buffer): a sink copies what it keeps.
          write: (chunk) => received.push(Buffer.from(chunk)),
          flush: async () => {
            flushedBeforeExit = true
          },
        },
      },
    )
    run.on('exit', (exit) => {
      expect(flushedBeforeExit).toBe(true)
      expect(Buffer.concat(received).length).toBe(exit.outputBytes)
    })
    const exit = await run.start().finished
    const expected = Array.from({ length: 20000 }, (_, i) => `${i + 1}\r\n`).join('')
    expect(Buffer.concat(received).toString()).toBe(expected)
    expect(exit.exitCode).toBe(0)
  })

  it.each(['pty', 'pipe'] as const)(
    "gives 'output' listeners chunks of their own (%s), while the sink's are lent",
    async (mode) => {
      const kept: Buffer[] = []
      const lent: Buffer[] = []
      const { run } = agentRun(
        { file: 'seq', args: ['1', '100000'] },
        { output: { write: (chunk) => lent.push(chunk) } },
        mode,
      )
      run.on('output', (chunk) => kept.push(chunk))
      expect((await run.start().finished).exitCode).toBe(0)
      const newline = mode === 'pty' ? '\r\n' : '\n'
      const expected = Array.from({ length: 100000 }, (_, i) => `${i + 1}${newline}`).join('')
      expect(Buffer.concat(kept).toString()).toBe(expected)
      // The sink got each chunk without a copy: views of the one buffer the output is read into.
      expect(new Set(lent.map((chunk) => chunk.buffer)).size).toBeLessThan(lent.length / 2)
    },
  )

  it('types into the agent and reports its pid', async () => {
    const { run, output } = agentRun({ file: fixture('echo-input.sh'), args: [] })
    let spawned: { pid: number; pgid: number } | undefined
    run.on('spawn', (info) => (spawned = info))
    run.on('output', (chunk) => {
      if (chunk.toString().includes('ready')) void run.write('yes\r')
    })
    const exit = await run.start().finished
    expect(output()).toContain('got: yes')
    expect(spawned?.pid).toBe(run.pid)
    expect(spawned?.pgid).toBe(run.pid)
    expect(exit.exitCode).toBe(0)
  })

  it('throws SpawnError from start() for a missing agent, with nothing spawned', () => {
    const { run } = agentRun({ file: 'no-such-agent-xyz', args: [] })
    expect(() => run.start()).toThrow(SpawnError)
    expect(() => run.start()).toThrow(
      /agent command not found: no-such-agent-xyz .*check agent.command in proctor.yml/,
    )
    expect(run.pid).toBeUndefined()
  })
})
