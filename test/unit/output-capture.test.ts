import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Transcript, TRANSCRIPT_BLOCK_BYTES, transcriptCapNote } from '../../src/supervisor/capture.js'

let dir: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'proctor-capture-'))
})
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('Transcript', () => {
  it('writes every byte in order and creates the session directory', async () => {
    const file = path.join(dir, 'sessions', 's1', 'transcript.log')
    const t = new Transcript(file, 1024 * 1024)
    const chunks = Array.from({ length: 200 }, (_, i) => Buffer.from(`line ${i}\n`))
    for (const c of chunks) t.write(c)
    const summary = await t.close()
    expect(fs.readFileSync(file)).toEqual(Buffer.concat(chunks))
    expect(summary).toEqual({
      path: file,
      bytes: Buffer.concat(chunks).length,
      capped: false,
      dropped: 0,
      error: null,
    })
  })

  it('stops at the cap, counts what it dropped and ends with one note line', async () => {
    const file = path.join(dir, 'transcript.log')
    const t = new Transcript(file, 100)
    let cappedAt: number | null = null
    t.on('capped', (max) => (cappedAt = max))
    t.write(Buffer.alloc(60, 'a'))
    t.write(Buffer.alloc(60, 'b')) // crosses the cap: 40 bytes kept, 20 dropped
    t.write(Buffer.alloc(30, 'c')) // entirely over the cap
    const summary = await t.close()
    expect(summary).toMatchObject({ bytes: 100, capped: true, dropped: 50, error: null })
    expect(cappedAt).toBe(100)
    const content = fs.readFileSync(file, 'utf8')
    expect(content).toBe('a'.repeat(60) + 'b'.repeat(40) + transcriptCapNote(100, 50))
    expect(content.endsWith('\n[proctor: transcript capped at 100 bytes; 50 bytes dropped]\n')).toBe(true)
  })

  it('a cap of zero keeps only the note', async () => {
    const file = path.join(dir, 'transcript.log')
    const t = new Transcript(file, 0)
    t.write(Buffer.from('hello'))
    expect(await t.close()).toMatchObject({ bytes: 0, capped: true, dropped: 5 })
    expect(fs.readFileSync(file, 'utf8')).toBe('\n[proctor: transcript capped at 0 bytes; 5 bytes dropped]\n')
  })

  it('a flood of odd-sized chunks lands in order while memory holds at most one block', async () => {
    const file = path.join(dir, 'transcript.log')
    const t = new Transcript(file, 64 * 1024 * 1024)
    let seed = 7
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n
    const chunks: Buffer[] = []
    let maxPending = 0
    // Mostly PTY-sized reads, some larger than a block, some empty: 8 MB in all.
    for (let total = 0; total < 8 * 1024 * 1024;) {
      const size = rand(10) === 0 ? 200_000 + rand(200_000) : rand(5000)
      const chunk = Buffer.alloc(size, chunks.length % 251)
      chunks.push(chunk)
      t.write(chunk)
      total += size
      maxPending = Math.max(maxPending, t.pendingBytes)
    }
    expect(maxPending).toBeLessThanOrEqual(TRANSCRIPT_BLOCK_BYTES)
    const expected = Buffer.concat(chunks)
    // Everything but the last partial block is on disk before close.
    expect(fs.statSync(file).size).toBeGreaterThanOrEqual(expected.length - TRANSCRIPT_BLOCK_BYTES)
    const summary = await t.close()
    expect(summary).toMatchObject({ bytes: expected.length, capped: false, dropped: 0, error: null })
    expect(fs.readFileSync(file).equals(expected)).toBe(true)
  })

  it('the caller may reuse its buffer as soon as write returns', async () => {
    const file = path.join(dir, 'transcript.log')
    const t = new Transcript(file, 1024)
    const reused = Buffer.from('first ')
    t.write(reused)
    reused.write('later ')
    t.write(reused)
    await t.close()
    expect(fs.readFileSync(file, 'utf8')).toBe('first later ')
  })

  it('small writes reach the disk without waiting for close', async () => {
    const file = path.join(dir, 'transcript.log')
    const t = new Transcript(file, 1024 * 1024)
    // No event marks a write landing on disk: poll with a generous deadline.
    const read = () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '')
    const landed = async (text: string) => {
      const deadline = Date.now() + 20_000
      while (read() !== text) {
        if (Date.now() > deadline) throw new Error(`transcript never reached ${JSON.stringify(text)}`)
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    }
    t.write(Buffer.from('prompt> '))
    await landed('prompt> ')
    // A block that fills goes at once; one begun after it lands on its own while the flush timer armed
    // for the one before is still pending.
    t.write(Buffer.from('a> '))
    const fill = 'x'.repeat(TRANSCRIPT_BLOCK_BYTES - 3)
    t.write(Buffer.from(fill))
    t.write(Buffer.from('answer'))
    await landed('prompt> a> ' + fill + 'answer')
    expect(await t.close()).toMatchObject({ bytes: 8 + TRANSCRIPT_BLOCK_BYTES + 6, capped: false })
  })

  it('close() is idempotent and later writes are ignored', async () => {
    const file = path.join(dir, 'transcript.log')
    const t = new Transcript(file, 1000)
    t.write(Buffer.from('abc'))
    const [a, b] = await Promise.all([t.close(), t.close()])
    t.write(Buffer.from('late'))
    expect(a).toEqual(b)
    expect(fs.readFileSync(file, 'utf8')).toBe('abc')
  })

  it('an unwritable transcript is reported, not thrown', async () => {
    const blocker = path.join(dir, 'not-a-dir')
    fs.writeFileSync(blocker, '')
    // The parent "directory" is a file, so mkdir fails up front with a clear error.
    expect(() => new Transcript(path.join(blocker, 'x', 'transcript.log'), 10)).toThrow(/EEXIST|ENOTDIR/)
    const readonlyDir = path.join(dir, 'ro')
    fs.mkdirSync(readonlyDir)
    fs.mkdirSync(path.join(readonlyDir, 'transcript.log')) // a directory where the file should go
    const t = new Transcript(path.join(readonlyDir, 'transcript.log'), 100)
    t.write(Buffer.from('data'))
    const summary = await t.close()
    expect(summary.error).toMatch(/cannot write transcript .*transcript\.log: .*EISDIR/)
  })

  it('rejects a negative cap with a clear message', () => {
    expect(() => new Transcript(path.join(dir, 't.log'), -1)).toThrow(/non-negative number of bytes, got -1/)
  })
})
