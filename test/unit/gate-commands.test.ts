// What a stop hook's command executes as judge, read from its words: the scripts `npm test` and its
// cousins run, the files the words name, where they run.
import { describe, expect, it } from 'vitest'
import { commandRefs, splitShell } from '../../src/hooks/gate-commands.js'

const scripts = (command: string | string[], dir = '') => commandRefs(command, dir).scripts

describe('package-manager commands name script entries', () => {
  it.each([
    ['npm test', 'test'],
    ['npm t', 'test'],
    ['npm run test', 'test'],
    ['npm run-script lint', 'lint'],
    ['npm run --silent lint -- --fix', 'lint'],
    ['npm --loglevel silent test', 'test'],
    ['pnpm test', 'test'],
    ['pnpm run check', 'check'],
    ['pnpm check', 'check'],
    ['yarn test', 'test'],
    ['yarn run check', 'check'],
    ['yarn check:all', 'check:all'],
    ['bun run check', 'check'],
    ['bun check', 'check'],
  ])('%s → scripts.%s with its pre and post scripts', (command, name) => {
    expect(scripts(command)).toEqual([{ dir: '', names: [`pre${name}`, name, `post${name}`] }])
  })

  it('bun test is bun’s own runner, pnpm/yarn builtins and npm exec are no script', () => {
    for (const command of [
      'bun test',
      'pnpm exec vitest',
      'yarn dlx x',
      'npm exec vitest',
      'npx vitest run',
      'bun run ./t.ts',
    ])
      expect(scripts(command), command).toEqual([])
  })

  it('an install runs the package’s install scripts', () => {
    expect(scripts('npm ci && npm test').map((s) => s.names)).toEqual([
      ['preinstall', 'install', 'postinstall', 'preprepare', 'prepare', 'postprepare'],
      ['pretest', 'test', 'posttest'],
    ])
  })

  it('follows --prefix, -C/--dir, --cwd and cd to the package directory', () => {
    expect(scripts('npm --prefix web test')[0]!.dir).toBe('web')
    expect(scripts('npm test --prefix=web')[0]!.dir).toBe('web')
    expect(scripts('pnpm -C packages/a test')[0]!.dir).toBe('packages/a')
    expect(scripts('pnpm --dir=packages/a run x')[0]!.dir).toBe('packages/a')
    expect(scripts('yarn --cwd app test')[0]!.dir).toBe('app')
    expect(scripts('cd app && npm test')[0]!.dir).toBe('app')
    expect(scripts('npm test', 'sub')[0]!.dir).toBe('sub')
    // A directory outside the repository names nothing in it.
    expect(scripts('npm --prefix ../../elsewhere test')[0]!.dir).toBe('')
  })

  it('reads workspace selections', () => {
    expect(scripts('npm test -w pkg-a')[0]).toMatchObject({ workspace: 'pkg-a' })
    expect(scripts('npm test --workspace=packages/a')[0]).toMatchObject({ workspace: 'packages/a' })
    expect(scripts('npm test --workspaces')[0]).toMatchObject({ workspace: '*' })
    expect(scripts('pnpm -r test')[0]).toMatchObject({ workspace: '*' })
    expect(scripts('pnpm --filter @x/a test')[0]).toMatchObject({ workspace: '@x/a' })
    expect(scripts('yarn workspace @x/a test')[0]).toEqual({
      dir: '',
      names: ['pretest', 'test', 'posttest'],
      workspace: '@x/a',
    })
    expect(scripts('yarn workspaces foreach run build')[0]).toMatchObject({
      workspace: '*',
      names: ['prebuild', 'build', 'postbuild'],
    })
  })

  it('reads through env, VAR=value, sh -c and argv arrays', () => {
    expect(scripts('CI=1 env -i FORCE_COLOR=0 npm test')).toHaveLength(1)
    expect(scripts(['sh', '-c', 'npm run lint && npm test']).map((s) => s.names[1])).toEqual(['lint', 'test'])
    expect(scripts(['npm', 'test'])).toHaveLength(1)
    expect(scripts(['bash', '-lc', 'cd web; yarn test'])[0]!.dir).toBe('web')
  })
})

describe('files the words name', () => {
  it('names the files of the command and of option values, relative to where it runs', () => {
    expect(commandRefs(['node', 'check.mjs']).files).toContain('check.mjs')
    expect(commandRefs('node scripts/check.mjs --config=ci/conf.json', 'web').files).toEqual(
      expect.arrayContaining(['web/scripts/check.mjs', 'web/ci/conf.json']),
    )
    expect(commandRefs('./check.sh').files).toContain('check.sh')
  })

  it('never names a path outside the repository', () => {
    const { files } = commandRefs('node ../x.mjs /etc/passwd ~/y.js')
    expect(files.some((f) => f.includes('..') || f.includes('passwd') || f.includes('y.js'))).toBe(false)
  })

  it('make runs in its directory (its Makefile is a judge)', () => {
    expect(commandRefs('make -C tools test').dirs).toContain('tools')
  })
})

describe('splitShell', () => {
  it('splits simple commands and honours quotes, escapes and comments', () => {
    expect(splitShell(`a 'b c' "d \\"e\\"" f\\ g; h && i || j | k # l m\nn`)).toEqual([
      ['a', 'b c', 'd "e"', 'f g'],
      ['h'],
      ['i'],
      ['j'],
      ['k'],
      ['n'],
    ])
  })
})
