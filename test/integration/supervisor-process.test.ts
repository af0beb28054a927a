import { afterEach, describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { spawnManaged } from '../../src/supervisor/process.js'
import { groupHasLiveMembers, isRunning } from '../../src/supervisor/proc-info.js'
import {
  SpawnError,
  type ManagedProcess,
  type SpawnMode,
  type SpawnOptions,
} from '../../src/supervisor/types.js'
import { OutputLog, fixture, processEnv, repoRoot, waitFor, waitGone } from './supervisor-helpers.js'

const started: ManagedProcess[] = []

function startProcess(mode: SpawnMode, command: SpawnOptions['command'], extra: Partial<SpawnOptions> = {}) {
  const log = new OutputLog()
  const child = spawnManaged({
    command,
    cwd: repoRoot,
    env: processEnv(),
    mode,
    graceMs: 1000,
    onOutput: log.onOutput,
    ...extra,
  })
  started.push(child)
  return { child, log }
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((child) => child.stop('requested')))
})

// The agent's output is read into one reused buffer (reuseOutputBuffer, as AgentRun does); hooks read it
// the ordinary way: the group lifecycle must not depend on which.
describe.each([
  ['pty', false],
  ['pty', true],
  ['pipe', false],
  ['pipe', true],
] as const)('spawnManaged in %s mode (reused read buffer: %s)', (mode, reuseOutputBuffer) => {
  const start = (
    spawnMode: SpawnMode,
    command: SpawnOptions['command'],
    extra: Partial<SpawnOptions> = {},
  ): ReturnType<typeof startProcess> => startProcess(spawnMode, command, { reuseOutputBuffer, ...extra })

  it('reports exit code 0 and all output', async () => {
    const { child, log } = start(mode, { file: fixture('exit-with.sh'), args: ['0'] })
    const exit = await child.exited
    expect(exit).toEqual({ exitCode: 0, signal: null, stoppedBy: null, killed: false })
    expect(log.text).toContain('to stdout')
    expect(log.text).toContain('to stderr')
    expect(child.pgid).toBe(child.pid)
    expect(child.mode).toBe(mode)
  })

  it('reports a non-zero exit code', async () => {
    const { child } = start(mode, { file: fixture('exit-with.sh'), args: ['3'] })
    expect((await child.exited).exitCode).toBe(3)
  })

  it('runs a shell string with /bin/sh -c and never joins argv', async () => {
    const { child, log } = start(mode, { shell: 'printf "%s|" "$0" "a b"; exit 4' })
    const exit = await child.exited
    expect(exit.exitCode).toBe(4)
    expect(log.text).toContain('/bin/sh|a b|')
    const argv = start(mode, { file: 'printf', args: ['[%s]', 'two words', '$HOME;'] })
    await argv.child.exited
    expect(argv.log.text).toContain('[two words][$HOME;]')
  })

  it('reports death by a signal', async () => {
    const { child } = start(mode, { file: fixture('kill-self.sh'), args: [] })
    const exit = await child.exited
    expect(exit.exitCode).toBeNull()
    expect(exit.signal).toBe('SIGKILL')
    expect(exit.stoppedBy).toBeNull()
  })

  it('passes exactly the given environment and cwd', async () => {
    const { child, log } = start(
      mode,
      { shell: 'echo "v=$PROCTOR_TEST_VAR h=${HOME:-unset}"; pwd' },
      {
        env: { PATH: process.env.PATH, PROCTOR_TEST_VAR: 'yes', HOME: undefined },
        cwd: '/tmp',
      },
    )
    await child.exited
    expect(log.text).toContain('v=yes h=unset')
    expect(log.text).toMatch(/^\/tmp\r?$/m)
  })

  it("gives a program started without a shell PWD = its own directory, not proctor's", async () => {
    // opencode takes its project from PWD: with proctor's it worked in proctor's directory.
    const { child, log } = start(
      mode,
      { file: process.execPath, args: ['-e', 'console.log(`pwd=${process.env.PWD}`)'] },
      { env: { PATH: process.env.PATH, PWD: repoRoot }, cwd: '/tmp' },
    )
    await child.exited
    expect(log.text).toMatch(/^pwd=\/tmp\r?$/m)
  })

  it('stops with SIGTERM and records the cause', async () => {
    const { child, log } = start(mode, { file: fixture('silent.sh'), args: [] })
    await log.next(/started/)
    const exit = await child.stop('timeout')
    expect(exit).toEqual({ exitCode: null, signal: 'SIGTERM', stoppedBy: 'timeout', killed: false })
  })

  it('makes stop idempotent: a second stop returns the same promise and keeps the first cause', async () => {
    const { child, log } = start(mode, { file: fixture('silent.sh'), args: [] })
    await log.next(/started/)
    const first = child.stop('idle_timeout')
    const second = child.stop('signal')
    expect(second).toBe(first)
    expect((await second).stoppedBy).toBe('idle_timeout')
    expect(await child.exited).toBe(await first)
  })

  it('SIGKILLs a grandchild that ignores SIGTERM after the grace period', async () => {
    const { child, log } = start(
      mode,
      { file: fixture('stubborn-grandchild.sh'), args: [] },
      { graceMs: 500 },
    )
    const grandchild = Number((await log.next(/grandchild (\d+)/))[1])
    expect(isRunning(grandchild)).toBe(true)
    const exit = await child.stop('requested')
    expect(exit.stoppedBy).toBe('requested')
    expect(exit.killed).toBe(true)
    await waitGone(grandchild, 'the SIGTERM-ignoring grandchild')
    await waitFor(() => !groupHasLiveMembers(child.pgid), 'the whole group to be gone')
  })

  it('reaps a background process left in the group when the leader exits on its own', async () => {
    const { child, log } = start(mode, { file: fixture('daemon-leftover.sh'), args: [] }, { graceMs: 500 })
    const exit = await child.exited
    expect(exit.exitCode).toBe(0)
    const daemon = Number((await log.next(/daemon (\d+)/))[1])
    await waitGone(daemon, 'the leftover background process')
  })

  it('stops a process stopped right after spawn (before it has set up its group)', async () => {
    for (let round = 0; round < 5; round++) {
      const { child } = start(mode, { file: fixture('silent.sh'), args: [] })
      const exit = await child.stop('requested')
      expect(exit.stoppedBy).toBe('requested')
      expect(exit.exitCode === 0 ? 'exited' : exit.signal).toMatch(/SIGTERM|SIGKILL|exited/)
    }
  })

  it('does nothing when stopped after it exited', async () => {
    const { child } = start(mode, { file: fixture('exit-with.sh'), args: ['0'] })
    await child.exited
    const exit = await child.stop('requested')
    expect(exit.stoppedBy).toBeNull()
    expect(exit.exitCode).toBe(0)
  })

  it('pauses and resumes the whole group', async () => {
    const { child, log } = start(mode, { file: fixture('ticker.sh'), args: [] })
    await log.next(/tick 3\b/)
    child.pause()
    // A member stopped in the middle of a fork leaves the leader waiting in the kernel (state D), so
    // look for any stopped member rather than at the leader alone.
    await waitFor(() => groupStates(child.pgid).includes('T'), 'the group to be stopped')
    // Output already in flight may still arrive: let it settle, then nothing new may come.
    const settled = await quietFor(log, 300)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(log.text).toBe(settled)
    const lastTick = Number([...settled.matchAll(/tick (\d+)/g)].at(-1)![1])
    child.resume()
    await log.next(new RegExp(`tick ${lastTick + 2}\\b`))
  })
})

describe('spawnManaged specifics', () => {
  const start = startProcess

  it.each([false, true])(
    'types into the terminal in PTY mode (reused read buffer: %s)',
    async (reuseOutputBuffer) => {
      const { child, log } = start('pty', { file: fixture('echo-input.sh'), args: [] }, { reuseOutputBuffer })
      await log.next(/ready/)
      await child.write('hello there\r')
      await log.next(/got: hello there/)
      expect((await child.exited).exitCode).toBe(0)
      // The input went through node-pty's socket while the output was read by another: both ended.
      expect(await child.write('late\r')).toMatchObject({ delivered: false })
    },
  )

  it.each(['pty', 'pipe'] as const)(
    'with reuseOutputBuffer reads %s output into one buffer and delivers every byte',
    async (mode) => {
      const chunks: Buffer[] = []
      const buffers = new Map<ArrayBufferLike, number>()
      const child = spawnManaged({
        command: { file: 'seq', args: ['1', '100000'] },
        cwd: repoRoot,
        env: processEnv(),
        mode,
        graceMs: 1000,
        reuseOutputBuffer: true,
        onOutput: (chunk) => {
          buffers.set(chunk.buffer, (buffers.get(chunk.buffer) ?? 0) + 1)
          chunks.push(Buffer.from(chunk))
        },
      })
      started.push(child)
      expect((await child.exited).exitCode).toBe(0)
      const newline = mode === 'pty' ? '\r\n' : '\n'
      const expected = Array.from({ length: 100000 }, (_, i) => `${i + 1}${newline}`).join('')
      expect(Buffer.concat(chunks).toString()).toBe(expected)
      // Not a fresh Buffer per read: all reads (but a PTY's last bytes, read apart at its end) share one.
      expect(chunks.length).toBeGreaterThan(10)
      expect(Math.max(...buffers.values())).toBeGreaterThanOrEqual(chunks.length - 2)
    },
  )

  it('gives a PTY child a terminal of the requested size', async () => {
    const { child, log } = start('pty', { shell: '[ -t 1 ] && echo tty; stty size' }, { cols: 100, rows: 30 })
    await child.exited
    expect(log.text).toContain('tty')
    expect(log.text).toContain('30 100')
  })

  it.each([false, true])(
    'feeds stdin in pipe mode and keeps stdout and stderr apart (reused read buffer: %s)',
    async (reuseOutputBuffer) => {
      const streams: string[] = []
      const child = spawnManaged({
        reuseOutputBuffer,
        command: { shell: 'read -r line; echo "out:$line"; echo "err:$line" >&2' },
        cwd: repoRoot,
        env: processEnv(),
        mode: 'pipe',
        graceMs: 1000,
        stdin: 'abc\n',
        onOutput: (chunk, stream) => streams.push(`${stream}=${chunk.toString().trim()}`),
      })
      started.push(child)
      await child.exited
      expect(streams.sort()).toEqual(['stderr=err:abc', 'stdout=out:abc'])
    },
  )

  it('closes stdin at once in pipe mode when no input is given', async () => {
    const { child, log } = start('pipe', { shell: 'cat; echo "eof seen"' })
    expect((await child.exited).exitCode).toBe(0)
    expect(log.text).toContain('eof seen')
  })

  it('ends a group whose leader ignores SIGTERM with SIGKILL', async () => {
    const { child, log } = start(
      'pipe',
      { shell: 'trap "" TERM; echo armed; while :; do sleep 1; done' },
      { graceMs: 300 },
    )
    await log.next(/armed/)
    const exit = await child.stop('shutdown')
    expect(exit).toMatchObject({ signal: 'SIGKILL', stoppedBy: 'shutdown', killed: true })
  })

  it('stops a paused group (SIGTERM is delivered after SIGCONT)', async () => {
    const { child, log } = start('pty', { file: fixture('ticker.sh'), args: [] })
    await log.next(/tick 1\b/)
    child.pause()
    const exit = await child.stop('requested')
    expect(exit).toMatchObject({ signal: 'SIGTERM', killed: false })
  })
})

describe('command resolution before spawn', () => {
  const start = startProcess

  it('reports a missing executable with the PATH searched', () => {
    const attempt = () =>
      spawnManaged({
        command: { file: 'claud-not-installed', args: ['-p'] },
        cwd: repoRoot,
        env: { PATH: '/usr/bin:/bin' },
        mode: 'pty',
        graceMs: 1000,
        label: 'agent',
      })
    expect(attempt).toThrow(SpawnError)
    expect(attempt).toThrow(
      'agent command not found: claud-not-installed (searched PATH: /usr/bin:/bin) — check agent.command in proctor.yml',
    )
  })

  it('reports a file that is not executable', () => {
    let error: unknown
    try {
      start('pipe', { file: fixture('not-executable.sh'), args: [] })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(SpawnError)
    expect((error as SpawnError).code).toBe('EACCES')
    expect((error as SpawnError).message).toContain('not-executable.sh')
    expect((error as SpawnError).message).toContain('chmod +x')
  })

  it('reports a missing relative path against the working directory', () => {
    expect(() => start('pipe', { file: './nope/agent', args: [] })).toThrow(
      `command not found: ${repoRoot}/nope/agent`,
    )
  })

  it('reports an empty shell string and a missing working directory', () => {
    expect(() => start('pipe', { shell: '  ' })).toThrow('shell command is empty')
    expect(() => start('pipe', { shell: 'true' }, { cwd: '/definitely/not/here' })).toThrow(
      'working directory does not exist: /definitely/not/here',
    )
  })
})

describe('no tail loss on fast exit', () => {
  // node-pty on Node 20/22 can end the stream before the kernel's last bytes were read; check the
  // fix on the machine's own Node (the CLI floor) and on the pinned Node 24 that runs the tests.
  const nodes = [...new Set([process.execPath, process.env.PROCTOR_SYSTEM_NODE].filter(Boolean))] as string[]
  it.each(nodes.flatMap((node) => [[node, ''] as const, [node, 'reuse'] as const]))(
    'delivers every byte of `seq 1 50000` in 50/50 PTY runs under %s %s',
    (node, reuse) => {
      const out = execFileSync(node, ['--import', 'tsx', fixture('tail-check.mts'), '50', '50000', reuse], {
        cwd: repoRoot,
        encoding: 'utf8',
        timeout: 120_000,
      })
      const result = JSON.parse(out.trim().split('\n').at(-1)!) as {
        complete: number
        runs: number
        shortfalls: number[]
      }
      expect(result.shortfalls).toEqual([])
      expect(result.complete).toBe(50)
    },
    150_000,
  )
})

/** First letters of the states of the group's members (ps -g selects by session on Linux: pgid === sid here). */
function groupStates(pgid: number): string[] {
  try {
    const out = execFileSync('ps', ['-o', 'pgid=,stat=', '-g', String(pgid)], { encoding: 'utf8' })
    return out
      .trim()
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([group]) => Number(group) === pgid)
      .map(([, stat]) => stat![0]!)
  } catch {
    return []
  }
}

/** Resolves with the log's text once no new output arrived for `quietMs`. */
async function quietFor(log: OutputLog, quietMs: number): Promise<string> {
  for (;;) {
    const before = log.text
    await new Promise((resolve) => setTimeout(resolve, quietMs))
    if (log.text === before) return before
  }
}
