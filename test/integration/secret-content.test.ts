// Secrets in checkpoint content (issue 31): every file a checkpoint would record is scanned — secretlint's
// recommended rules, the values proctor knows (as they are, base64'd, URL-encoded, or in parts), and the
// bytes of forbidden files wherever they reappear. A hit is withheld like a forbidden file and is a
// critical `secret_content` violation that never quotes the secret. Files left out for their size or LFS
// are still judged by path. Real git repositories, the store opened through the Workspace as a session does.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { configSchema, type Config } from '../../src/config/schema.js'
import { registerKnownSecrets } from '../../src/policy/secrets/known.js'
import { Workspace } from '../../src/state/workspace.js'
import type { CheckpointStore } from '../../src/checkpoints/store.js'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'

// A value proctor knows (the action registers its withheld tokens so): random, no token shape of its own.
const KNOWN = 'Zq7mW2xK9vB4nR8tL1yH6cJ3dF5gS0pAeUoIiQw'
registerKnownSecrets({ GITHUB_TOKEN: KNOWN })
// A token only secretlint's rules can tell (GitHub's classic format); proctor does not know it.
const PATTERN_TOKEN = `ghp_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5'}`

const repos: TempRepo[] = []
const stores: CheckpointStore[] = []
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close().catch(() => undefined)
  for (const repo of repos.splice(0)) repo.cleanup()
})

async function setup(
  policy: Record<string, unknown> = {},
  checkpoints: Record<string, unknown> = {},
): Promise<{ r: TempRepo; store: CheckpointStore; config: Config }> {
  const r = makeTempRepo({ files: { 'README.md': 'hello\n', 'src/app.ts': 'export const a = 1\n' } })
  repos.push(r)
  const config = configSchema.parse({ policy, checkpoints })
  const store = await Workspace.find(r.dir, r.env)!.store('s1', config, { judge: true })
  stores.push(store)
  await store.recordBaseline()
  return { r, store, config }
}

/** Everything the session's ref carries (what a push sends): every commit's message and every blob. */
function pushable(r: TempRepo, store: CheckpointStore): string {
  return r.git(['log', '-p', '--format=%B', '--binary', store.ref])
}

function constraints(violations: { constraint: string; file: string; severity: string }[]): string[] {
  return violations.map((v) => `${v.constraint}:${v.file}:${v.severity}`)
}

describe('secret_content: a secret in a file is withheld and a critical violation', () => {
  it('a token in a new file outside any forbidden area (secretlint rule)', async () => {
    const { r, store } = await setup()
    r.write('config/deploy.txt', `token: ${PATTERN_TOKEN}\n`)
    r.write('src/app.ts', 'export const a = 2\n')
    const result = (await store.createDetailed('manual'))!
    expect(result.record.files_changed).toEqual(['src/app.ts'])
    expect(result.record.skipped).toEqual(['config/deploy.txt'])
    expect(constraints(result.violations)).toEqual(['secret_content:config/deploy.txt:critical'])
    const [v] = result.violations
    expect(v!.message).toBe(
      'config/deploy.txt line 1 holds a secret (GitHub personal access tokens; rule @secretlint/secretlint-rule-github); its content is kept out of checkpoints and pushes',
    )
    expect(JSON.stringify(result)).not.toContain(PATTERN_TOKEN)
    expect(pushable(r, store)).not.toContain(PATTERN_TOKEN)
    expect(pushable(r, store)).toContain('Skipped "config/deploy.txt": holds a secret')
    // The file itself stays in the worktree.
    expect(r.read('config/deploy.txt')).toContain(PATTERN_TOKEN)
  })

  it('the GitHub token proctor knows, in a .env', async () => {
    const { r, store } = await setup()
    r.write('.env', `GITHUB_TOKEN=${KNOWN}\n`)
    const result = (await store.createDetailed('manual'))!
    expect(constraints(result.violations)).toEqual(['secret_content:.env:critical'])
    expect(result.violations[0]!.message).toContain(
      '.env line 1 holds a secret (the value of GITHUB_TOKEN, as it is',
    )
    expect(pushable(r, store)).not.toContain(KNOWN)
  })

  it('a known token split over two files: both halves are withheld', async () => {
    const { r, store } = await setup()
    r.write('src/a.ts', `export const head = '${KNOWN.slice(0, 20)}'\n`)
    r.write('src/b.ts', `export const tail = '${KNOWN.slice(20)}'\n`)
    const result = (await store.createDetailed('manual'))!
    expect(constraints(result.violations).sort()).toEqual([
      'secret_content:src/a.ts:critical',
      'secret_content:src/b.ts:critical',
    ])
    expect(result.violations[0]!.message).toContain('a part of the value of GITHUB_TOKEN')
    const pushed = pushable(r, store)
    expect(pushed).not.toContain(KNOWN.slice(0, 20))
    expect(pushed).not.toContain(KNOWN.slice(20))
  })

  it('a known token base64-encoded inside a longer value, and URL-encoded', async () => {
    const { r, store } = await setup()
    const basic = Buffer.from(`x-access-token:${KNOWN}`).toString('base64')
    r.write('ci/auth.json', JSON.stringify({ header: `Authorization: Basic ${basic}` }) + '\n')
    r.write('ci/url.txt', `https://example.com/?t=${encodeURIComponent(`${KNOWN}/+`)}\n`)
    const result = (await store.createDetailed('manual'))!
    expect(constraints(result.violations).sort()).toEqual([
      'secret_content:ci/auth.json:critical',
      'secret_content:ci/url.txt:critical',
    ])
    expect(result.violations.find((v) => v.file === 'ci/auth.json')!.message).toContain('base64-encoded')
    expect(pushable(r, store)).not.toContain(basic)
  })

  it('a hard link and a copy of a forbidden file are recognised by their bytes', async () => {
    const r = makeTempRepo({ files: { 'README.md': 'hello\n' } })
    repos.push(r)
    // The user's forbidden file, there before the session: no token shape, only its bytes give it away.
    r.write('private/notes.txt', 'db password is correct horse battery staple\n')
    const config = configSchema.parse({ policy: { forbidden_areas: ['private/'] } })
    const store = await Workspace.find(r.dir, r.env)!.store('s1', config, { judge: true })
    stores.push(store)
    await store.recordBaseline()
    fs.mkdirSync(path.join(r.dir, 'pub'))
    fs.linkSync(path.join(r.dir, 'private/notes.txt'), path.join(r.dir, 'pub/linked.txt'))
    fs.copyFileSync(path.join(r.dir, 'private/notes.txt'), path.join(r.dir, 'pub/copy.txt'))
    const result = (await store.createDetailed('manual'))!
    expect(constraints(result.violations).sort()).toEqual([
      'secret_content:pub/copy.txt:critical',
      'secret_content:pub/linked.txt:critical',
    ])
    expect(result.violations[0]!.message).toContain(
      'a copy of private/notes.txt, which is in a forbidden area',
    )
    expect(pushable(r, store)).not.toContain('correct horse')
  })

  it('once the agent removes the secret, the file is recorded and the violation is no longer standing', async () => {
    const { r, store } = await setup()
    r.write('src/cfg.ts', `export const token = '${PATTERN_TOKEN}'\n`)
    const first = (await store.createDetailed('manual'))!
    expect(constraints(first.violations)).toEqual(['secret_content:src/cfg.ts:critical'])
    r.write('src/cfg.ts', 'export const token = process.env.TOKEN\n')
    const second = (await store.createDetailed('manual'))!
    expect(second.record.files_changed).toEqual(['src/cfg.ts'])
    expect(second.violations).toEqual([])
    expect(pushable(r, store)).not.toContain(PATTERN_TOKEN)
  })

  it('a secretlint-disable comment written by the agent does not switch the scan off', async () => {
    const { r, store } = await setup()
    r.write(
      'src/cfg.ts',
      `// secretlint-disable\nexport const token = '${PATTERN_TOKEN}' // secretlint-disable-line\n`,
    )
    const result = (await store.createDetailed('manual'))!
    expect(constraints(result.violations)).toEqual(['secret_content:src/cfg.ts:critical'])
  })

  it('a secret the user left before the session is theirs: left out of every checkpoint, never judged', async () => {
    const r = makeTempRepo({ files: { 'README.md': 'hello\n' } })
    repos.push(r)
    r.write('.env', `GITHUB_TOKEN=${KNOWN}\n`)
    const store = await Workspace.find(r.dir, r.env)!.store('s1', configSchema.parse({}), { judge: true })
    stores.push(store)
    const baseline = await store.recordBaseline()
    expect(baseline.preExisting).toEqual(['.env'])
    r.write('README.md', 'changed\n')
    const result = (await store.createDetailed('manual'))!
    expect(result.violations).toEqual([])
    expect(result.record.skipped).toEqual(['.env'])
    expect(pushable(r, store)).not.toContain(KNOWN)
  })
})

describe('nothing escapes judgement by being left out of a checkpoint', () => {
  it('a 2 MB new workflow under protected_areas, over max_file_size, is a protected_area violation', async () => {
    const { r, store } = await setup(
      { protected_areas: ['.github/**'], violation_severity: 'error' },
      { max_file_size: '1MiB' },
    )
    r.write('.github/workflows/big.yml', `on: push\n# ${'x'.repeat(2 * 1024 * 1024)}\n`)
    const result = (await store.createDetailed('manual'))!
    expect(result.record.skipped).toEqual(['.github/workflows/big.yml'])
    expect(pushable(r, store)).toContain('Skipped ".github/workflows/big.yml": over max_file_size')
    expect(constraints(result.violations)).toContain('protected_area:.github/workflows/big.yml:error')
  })

  it('a workflow the agent marks filter=lfs in .gitattributes is a protected_area violation', async () => {
    const { r, store } = await setup({ protected_areas: ['.github/**'], violation_severity: 'error' })
    r.write('.gitattributes', '*.yml filter=lfs diff=lfs merge=lfs -text\n')
    r.write('.github/workflows/lfs.yml', 'on: push\njobs: {}\n')
    const result = (await store.createDetailed('manual'))!
    expect(result.record.skipped).toEqual(['.github/workflows/lfs.yml'])
    expect(result.record.files_changed).toEqual(['.gitattributes'])
    expect(pushable(r, store)).toContain('Skipped ".github/workflows/lfs.yml": LFS-tracked')
    expect(constraints(result.violations)).toContain('protected_area:.github/workflows/lfs.yml:error')
  })

  it('a large file the user left before the session stays theirs (not judged)', async () => {
    const r = makeTempRepo({ files: { 'README.md': 'hello\n' } })
    repos.push(r)
    r.write('.github/workflows/big.yml', 'x'.repeat(2 * 1024 * 1024))
    const config = configSchema.parse({
      policy: { protected_areas: ['.github/**'] },
      checkpoints: { max_file_size: '1MiB' },
    })
    const store = await Workspace.find(r.dir, r.env)!.store('s1', config, { judge: true })
    stores.push(store)
    await store.recordBaseline()
    r.write('README.md', 'changed\n')
    const result = (await store.createDetailed('manual'))!
    expect(result.violations).toEqual([])
    // Changed by the agent afterwards, it is the agent's.
    r.write('.github/workflows/big.yml', 'y'.repeat(2 * 1024 * 1024 + 1))
    const next = (await store.createDetailed('manual'))!
    expect(constraints(next.violations)).toContain('protected_area:.github/workflows/big.yml:warning')
  })
})

describe('publish and verify judge the handed-off chain from git objects', () => {
  it('a secret one checkpoint adds and a later one deletes keeps the chain off the remote', async () => {
    const { judgeDiff, unpushable } = await import('../../src/action/judge.js')
    const { Git } = await import('../../src/git/runner.js')
    const r = makeTempRepo({ files: { 'README.md': 'hello\n' } })
    repos.push(r)
    const head = r.git(['rev-parse', 'HEAD']).trim()
    // A chain built without proctor's scan (an older proctor, or by hand): the token is in commit 1 only.
    r.write('src/token.txt', Buffer.from(`auth=${KNOWN}`).toString('base64') + '\n')
    r.commitAll('leak')
    r.git(['rm', '-q', 'src/token.txt'])
    r.write('src/app.ts', 'export const a = 1\n')
    r.commitAll('hide it')
    const tip = r.git(['rev-parse', 'HEAD']).trim()
    const config = configSchema.parse({})
    const judged = await judgeDiff({
      git: new Git({ cwd: r.dir, env: r.env }),
      head,
      tip,
      gate: { configFile: null, hooks: [], hookDir: '' },
      config,
      worktree: r.dir,
      checkpoint: 2,
    })
    const held = unpushable(judged.violations)
    expect(held.map((v) => `${v.constraint}:${v.file}:${v.severity}`)).toEqual([
      'secret_content:src/token.txt:critical',
    ])
    expect(held[0]!.message).toContain('the value of GITHUB_TOKEN, base64-encoded')
    expect(held[0]!.message).toContain('of the checkpoint chain')
    expect(JSON.stringify(judged)).not.toContain(KNOWN)
  })
})

describe('the log, the summary and the comment redact a known token in its encoded forms', () => {
  it('base64 (inside a longer value) and URL-encoded', async () => {
    const { createSanitizer } = await import('../../src/util/sanitize.js')
    const password = 'p@ss/w0rd:Zq7mW2xK9vB4'
    const s = createSanitizer({ secrets: [KNOWN, password] })
    const encoded = Buffer.from(`user:${KNOWN}`).toString('base64')
    const line = `{"auth": "${encoded}", "url": "https://db?pw=${encodeURIComponent(password)}"}`
    for (const out of [s.forLog(line), s.forMarkdown(line, 1000), s.redact(line)]) {
      expect(out).not.toContain(encoded.slice(8, 40))
      expect(out).not.toContain(encodeURIComponent(password).slice(0, 20))
    }
  })
})
