// A real `git push` through the pre-push hook, blocked by a failing stop hook and allowed by a passing one:
// once with hooks/pre-push as a plain core.hooksPath hook, once through husky v9's runner.
import { execFile } from 'node:child_process'
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { writeInitFiles } from '../../src/init/init.js'
import { proctorArgv, repoRoot } from '../fixtures/hooks/cli-argv.js'

const execFileAsync = promisify(execFile)
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

interface Result {
  code: number
  stdout: string
  stderr: string
}

function gitEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith('GIT_') && key !== 'HUSKY' && !key.startsWith('PROCTOR_')) env[key] = value
  return {
    ...env,
    HOME: home,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
    PROCTOR_BIN: proctorArgv().join(' '),
    ...extra,
  }
}

async function git(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<Result> {
  try {
    const { stdout, stderr } = await execFileAsync('git', args, { cwd, env, timeout: 120_000 })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string }
    return {
      code: typeof failed.code === 'number' ? failed.code : 1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? '',
    }
  }
}

async function setup(): Promise<{ work: string; remote: string; home: string }> {
  const base = mkdtempSync(join(tmpdir(), 'proctor-prepush-'))
  dirs.push(base)
  const work = join(base, 'work')
  const remote = join(base, 'remote.git')
  const home = join(base, 'home')
  mkdirSync(home)
  const env = gitEnv(home)
  await git(base, ['init', '--bare', '-q', remote], env)
  await git(base, ['init', '-q', '-b', 'main', work], env)
  writeFileSync(
    join(work, 'proctor.yml'),
    [
      'stop_hooks:',
      '  - name: needs-ok',
      `    command: 'test -f ok.txt || { echo "ok.txt is missing" >&2; exit 2; }'`,
      '  - name: record',
      '    command: "cat > .proctor-payload.json"',
      '',
    ].join('\n'),
  )
  writeFileSync(join(work, '.gitignore'), 'ok.txt\n.proctor-payload.json\n')
  await git(work, ['add', '.'], env)
  await git(work, ['commit', '-q', '-m', 'first'], env)
  await git(work, ['remote', 'add', 'origin', remote], env)
  return { work, remote, home }
}

async function remoteHas(remote: string, home: string, ref: string): Promise<boolean> {
  return (await git(remote, ['rev-parse', '--verify', '--quiet', ref], gitEnv(home))).code === 0
}

describe.each(['plain core.hooksPath', 'husky v9'] as const)('pre-push via %s', (style) => {
  async function install(work: string, home: string): Promise<void> {
    if (style === 'plain core.hooksPath') {
      mkdirSync(join(work, '.githooks'))
      copyFileSync(join(repoRoot, 'hooks/pre-push'), join(work, '.githooks/pre-push'))
      chmodSync(join(work, '.githooks/pre-push'), 0o755)
      await git(work, ['config', 'core.hooksPath', '.githooks'], gitEnv(home))
      return
    }
    // What `proctor init` + `husky` (v9.1.7 index.js) set up.
    await writeInitFiles(work, false)
    mkdirSync(join(work, '.husky/_'), { recursive: true })
    copyFileSync(join(repoRoot, 'node_modules/husky/husky'), join(work, '.husky/_/h'))
    writeFileSync(join(work, '.husky/_/pre-push'), '#!/usr/bin/env sh\n. "$(dirname "$0")/h"', {
      mode: 0o755,
    })
    await git(work, ['config', 'core.hooksPath', '.husky/_'], gitEnv(home))
  }

  it('a failing stop hook blocks the push; a passing one lets it through with the pushed refs', async () => {
    const { work, remote, home } = await setup()
    await install(work, home)
    const blocked = await git(work, ['push', '-q', 'origin', 'main'], gitEnv(home))
    expect(blocked.code).not.toBe(0)
    expect(blocked.stderr).toMatch(/BLOCK .* needs-ok +ok\.txt is missing/)
    expect(blocked.stderr).toContain('push blocked by stop hooks')
    expect(await remoteHas(remote, home, 'refs/heads/main')).toBe(false)

    writeFileSync(join(work, 'ok.txt'), 'fine\n')
    const allowed = await git(work, ['push', '-q', 'origin', 'main'], gitEnv(home))
    expect(allowed.stderr).not.toContain('push blocked')
    expect(allowed.code).toBe(0)
    const head = (await git(work, ['rev-parse', 'HEAD'], gitEnv(home))).stdout.trim()
    expect((await git(remote, ['rev-parse', 'refs/heads/main'], gitEnv(home))).stdout.trim()).toBe(head)
    const payload = JSON.parse(readFileSync(join(work, '.proctor-payload.json'), 'utf8'))
    expect(payload).toMatchObject({
      hook_event_name: 'stop',
      stop_reason: 'pre-push',
      remote: { name: 'origin', url: remote },
      pushed_refs: [
        {
          local_ref: 'refs/heads/main',
          local_sha: head,
          remote_ref: 'refs/heads/main',
          remote_sha: '0'.repeat(40),
        },
      ],
    })
  })

  it.each([
    ['PROCTOR_SKIP', '1'],
    ['HUSKY', '0'],
  ])('%s=%s skips the stop hooks', async (name, value) => {
    const { work, remote, home } = await setup()
    await install(work, home)
    const pushed = await git(work, ['push', '-q', 'origin', 'main'], gitEnv(home, { [name]: value }))
    expect(pushed.code).toBe(0)
    expect(await remoteHas(remote, home, 'refs/heads/main')).toBe(true)
    // husky's own runner exits silently on HUSKY=0 before our script runs; otherwise we say why.
    if (!(style === 'husky v9' && name === 'HUSKY')) expect(pushed.stderr).toMatch(/skipped/)
  })
})
