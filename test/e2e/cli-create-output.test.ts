// `proctor checkpoints create` writes its output straight to fd 1 (no process.stdout stream) and exits as soon
// as it is written. A descriptor it shares may be non-blocking and full (a slow reader): then the rest goes
// through process.stdout and the process exits only once every byte is out.
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { makeTempRepo, tempDir, type TempRepo } from '../helpers/git-repo.js'

const cli = join(resolve(import.meta.dirname, '../..'), 'dist/cli.js')
const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function repoWithWork(): TempRepo {
  const repo = makeTempRepo({ files: { 'README.md': '# test\n' } })
  cleanups.push(() => repo.cleanup())
  repo.write('work.txt', 'agent work\n')
  return repo
}

describe('checkpoints create output', () => {
  it('prints its line on a plain pipe and exits 0', () => {
    const repo = repoWithWork()
    const out = execFileSync(process.execPath, [cli, 'checkpoints', 'create', '--session', 'piped'], {
      cwd: repo.dir,
      env: repo.env,
      encoding: 'utf8',
    })
    expect(out).toMatch(/^piped@1 [0-9a-f]{12}: 1 file\(s\)\n$/)
  })

  // Linux: it watches the CLI through /proc to know it has tried to write before anything is read.
  it.skipIf(process.platform !== 'linux')(
    'waits for a full non-blocking stdout to drain and loses nothing',
    async () => {
      const repo = repoWithWork()
      const dir = tempDir('proctor-create-fifo-')
      cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }))
      const fifo = join(dir, 'stdout')
      execFileSync('mkfifo', [fifo])
      const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK)
      const writer = fs.openSync(fifo, fs.constants.O_WRONLY)
      // Fill the pipe through a second, non-blocking opening of it.
      const filler = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)
      let filled = 0
      for (const size of [4096, 1]) {
        const chunk = Buffer.alloc(size, 'x')
        for (;;) {
          try {
            filled += fs.writeSync(filler, chunk)
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error
            break
          }
        }
      }
      fs.closeSync(filler)
      const child = spawn(process.execPath, [cli, 'checkpoints', 'create', '--session', 'full', '--json'], {
        cwd: repo.dir,
        env: repo.env,
        stdio: ['ignore', writer, 'pipe'],
      })
      // Another process holding the same pipe makes it non-blocking (node's own process.stdout does, on a
      // pipe): the flag belongs to the open file the CLI writes to, set once the CLI has started.
      new net.Socket({ fd: writer, readable: false, writable: true }).destroy()
      let stderr = ''
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      let exitCode: number | null | undefined
      const exited = new Promise<void>((done) =>
        child.on('exit', (code) => {
          exitCode = code
          done()
        }),
      )
      // Read nothing until the CLI has taken its checkpoint and waits with no git running: it has then tried to
      // write (and found the pipe full). One that gave up on EAGAIN has exited instead.
      const pid = child.pid!
      const waiting = (): boolean => {
        try {
          if (!fs.existsSync(join(repo.dir, '.git/refs/proctor/full'))) return false
          if (fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim() !== '') return false
          const wchan = fs.readFileSync(`/proc/${pid}/wchan`, 'utf8')
          // A kernel that hides wait channels ("0") cannot say more: read then rather than wait forever on a
          // CLI that, as it should, waits for the reader.
          return wchan === 'do_epoll_wait' || wchan === '0'
        } catch {
          return false
        }
      }
      while (exitCode === undefined && !waiting()) await new Promise((tick) => setTimeout(tick, 5))
      const chunks: Buffer[] = []
      const stream = new net.Socket({ fd: reader, readable: true, writable: false })
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      await new Promise((done) => stream.on('end', done))
      await exited
      expect(exitCode, stderr).toBe(0)
      const all = Buffer.concat(chunks)
      expect(all.subarray(0, filled).every((byte) => byte === 0x78)).toBe(true)
      expect(JSON.parse(all.subarray(filled).toString('utf8'))).toMatchObject({
        seq: 1,
        files_changed: ['work.txt'],
      })
    },
  )
})
