import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cleanGitEnv, startGitHttpServer, type GitHttpServer } from '../servers/git-http.js'

interface GitResult {
  code: number | null
  stdout: string
  stderr: string
}

// Async on purpose: the server lives in this process, so a synchronous git call would deadlock it.
function git(cwd: string, ...args: string[]): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd,
      env: cleanGitEnv({
        GIT_AUTHOR_NAME: 'Test',
        GIT_AUTHOR_EMAIL: 'test@example.com',
        GIT_COMMITTER_NAME: 'Test',
        GIT_COMMITTER_EMAIL: 'test@example.com',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

async function ok(cwd: string, ...args: string[]): Promise<string> {
  const result = await git(cwd, ...args)
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed (${result.code}): ${result.stderr}`)
  return result.stdout.trim()
}

let tmp: string
let servers: GitHttpServer[]

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'proctor-git-http-'))
  servers = []
})
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()))
  rmSync(tmp, { recursive: true, force: true })
})

async function serve(options: Omit<Parameters<typeof startGitHttpServer>[0], 'projectRoot'> = {}) {
  const root = join(tmp, 'srv')
  mkdirSync(root, { recursive: true })
  const server = await startGitHttpServer({ projectRoot: root, ...options })
  servers.push(server)
  return server
}

/** A local clone of `url` with one commit on main. */
async function workRepo(name: string, url: string): Promise<string> {
  const dir = join(tmp, name)
  await ok(tmp, 'clone', '--quiet', url, dir)
  await ok(dir, 'checkout', '--quiet', '-B', 'main')
  writeFileSync(join(dir, 'README.md'), `hello from ${name}\n`)
  await ok(dir, 'add', 'README.md')
  await ok(dir, 'commit', '--quiet', '-m', 'first')
  return dir
}

describe('git http server', () => {
  it('serves clone, push and fetch with the real git client', async () => {
    const server = await serve()
    server.createRepo('project.git')
    const url = server.repoUrl('project.git')

    const a = await workRepo('a', url)
    await ok(a, 'push', '--quiet', 'origin', 'main')

    const b = join(tmp, 'b')
    await ok(tmp, 'clone', '--quiet', url, b)
    expect(readFileSync(join(b, 'README.md'), 'utf8')).toBe('hello from a\n')

    writeFileSync(join(a, 'second.txt'), 'two\n')
    await ok(a, 'add', 'second.txt')
    await ok(a, 'commit', '--quiet', '-m', 'second')
    await ok(a, 'push', '--quiet', 'origin', 'main')
    await ok(b, 'fetch', '--quiet', 'origin')
    expect(await ok(b, 'rev-parse', 'origin/main')).toBe(await ok(a, 'rev-parse', 'HEAD'))

    expect(
      server.requests.some(
        (r) => r.method === 'POST' && r.url.endsWith('/git-receive-pack') && r.status === 200,
      ),
    ).toBe(true)
    expect(
      server.requests.some(
        (r) => r.method === 'POST' && r.url.endsWith('/git-upload-pack') && r.status === 200,
      ),
    ).toBe(true)
  })

  it('answers 404 for a repository that does not exist', async () => {
    const server = await serve()
    const result = await git(tmp, 'clone', '--quiet', server.repoUrl('missing.git'), join(tmp, 'x'))
    expect(result.code).not.toBe(0)
    expect(result.stderr).toMatch(/not found|404/i)
  })

  it('handles a chunked multi-megabyte push and a gzipped fetch negotiation', async () => {
    const server = await serve()
    server.createRepo('big.git')
    const url = server.repoUrl('big.git')
    const a = await workRepo('a', url)
    writeFileSync(join(a, 'blob.bin'), randomBytes(3 * 1024 * 1024)) // incompressible: over http.postBuffer
    await ok(a, 'add', 'blob.bin')
    await ok(a, 'commit', '--quiet', '-m', 'big')
    await ok(a, 'push', '--quiet', 'origin', 'main')
    expect(
      server.requests.some((r) => r.url.endsWith('/git-receive-pack') && r.chunked && r.status === 200),
    ).toBe(true)

    // A clone with many commits the server lacks sends a long list of "have" lines, which git gzips.
    const b = join(tmp, 'b')
    await ok(tmp, 'clone', '--quiet', url, b)
    for (let i = 0; i < 60; i++) await ok(b, 'commit', '--quiet', '--allow-empty', '-m', `local ${i}`)
    writeFileSync(join(a, 'new.txt'), 'new\n')
    await ok(a, 'add', 'new.txt')
    await ok(a, 'commit', '--quiet', '-m', 'remote change')
    await ok(a, 'push', '--quiet', 'origin', 'main')
    await ok(b, 'fetch', '--quiet', 'origin')
    expect(await ok(b, 'rev-parse', 'origin/main')).toBe(await ok(a, 'rev-parse', 'HEAD'))
    expect(server.requests.some((r) => r.contentEncoding === 'gzip' && r.status === 200)).toBe(true)
  })

  it('refuses pushes with 403 and a message while fetches still work', async () => {
    const server = await serve({ refuse: 'push', refuseMessage: 'pushes are blocked by policy' })
    const dir = server.createRepo('locked.git')
    // Seed the bare repo directly, since nobody may push to it.
    const seed = join(tmp, 'seed')
    await ok(tmp, 'init', '--quiet', '--initial-branch=main', seed)
    writeFileSync(join(seed, 'f'), 'x\n')
    await ok(seed, 'add', 'f')
    await ok(seed, 'commit', '--quiet', '-m', 'seed')
    await ok(seed, 'push', '--quiet', dir, 'main')

    const clone = join(tmp, 'clone')
    await ok(tmp, 'clone', '--quiet', server.repoUrl('locked.git'), clone)
    await ok(clone, 'commit', '--quiet', '--allow-empty', '-m', 'attempt')
    const push = await git(clone, 'push', 'origin', 'main')
    expect(push.code).not.toBe(0)
    expect(push.stderr).toContain('403')
    expect(push.stderr).toContain('pushes are blocked by policy')
    expect(await ok(dir, 'rev-parse', 'main')).toBe(await ok(seed, 'rev-parse', 'HEAD'))
  })

  it('refuses everything with refuse: "all"', async () => {
    const server = await serve({ refuse: 'all' })
    server.createRepo('r.git')
    const result = await git(tmp, 'clone', '--quiet', server.repoUrl('r.git'), join(tmp, 'x'))
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain('403')
    expect(server.requests.every((r) => r.status === 403)).toBe(true)
  })

  it('declines refs like a ruleset: the push gets through HTTP but the ref is rejected', async () => {
    const server = await serve({
      declineRefs: {
        glob: 'refs/heads/proctor/*',
        message: 'push declined due to repository rule violations',
      },
    })
    const dir = server.createRepo('rules.git')
    const a = await workRepo('a', server.repoUrl('rules.git'))
    await ok(a, 'push', '--quiet', 'origin', 'main')

    const rejected = await git(a, 'push', 'origin', 'HEAD:refs/heads/proctor/s1')
    expect(rejected.code).not.toBe(0)
    expect(rejected.stderr).toContain('[remote rejected]')
    expect(rejected.stderr).toContain('push declined due to repository rule violations')
    expect((await git(dir, 'rev-parse', '--verify', '--quiet', 'refs/heads/proctor/s1')).code).not.toBe(0)
  })

  it('demands Basic credentials when auth is set', async () => {
    const server = await serve({ auth: { user: 'bot', password: 's3cr3t' } })
    server.createRepo('private.git')

    const anonymous = await git(tmp, 'clone', '--quiet', server.repoUrl('private.git'), join(tmp, 'anon'))
    expect(anonymous.code).not.toBe(0)
    expect(anonymous.stderr).toMatch(/Authentication failed|could not read Username|401/)

    const a = await workRepo('a', server.repoUrl('private.git', { credentials: true }))
    await ok(a, 'push', '--quiet', 'origin', 'main')
    expect(server.requests.some((r) => r.status === 401)).toBe(true)
    expect(server.requests.some((r) => r.url.endsWith('/git-receive-pack') && r.status === 200)).toBe(true)
  })

  it('stops accepting connections after close', async () => {
    const server = await serve()
    server.createRepo('r.git')
    await server.close()
    servers = []
    const result = await git(tmp, 'ls-remote', server.repoUrl('r.git'))
    expect(result.code).not.toBe(0)
    expect(result.stderr).toMatch(/Failed to connect|Connection refused|Could not connect/i)
  })
})
