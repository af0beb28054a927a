// What the built CLI (dist/) loads before it does its job: `proctor run` without a proctor.yml starts its
// agent before any of the config parser's code (zod, yaml) has been loaded, nor xterm in a PTY, nor
// node:crypto; its git reads run while proctor.yml is parsed; `checkpoints create` loads neither commander
// nor other commands, nor does a plain `run`; and `--version` answers without the command tree. (The time this saves is in `npm run bench -- startup`; this checks the structure that
// saves it, which the timings are too noisy to show on a busy machine.)
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import module from 'node:module'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'

const root = resolve(import.meta.dirname, '../..')
const cli = join(root, 'dist/cli.js')

// Preloaded into the CLI: records every module of dist/ as it is loaded, and writes the list out when the
// process first starts something that is not git (the agent, through child_process or node-pty's native
// fork) — or when it exits, if it never does.
const TRACER = `
import module from 'node:module'
import { Module } from 'node:module'
import cp from 'node:child_process'
import fs from 'node:fs'
const loaded = []
module.registerHooks({
  load(url, context, next) {
    if (url.startsWith('file:') || url.startsWith('node:')) loaded.push(url)
    return next(url, context)
  },
})
// What happened before the agent started, in order: each git process, and each read of proctor.yml.
const events = []
let written = false
const write = () => {
  if (written) return
  written = true
  fs.writeFileSync(process.env.TRACE_OUT, JSON.stringify({ loaded, events, internal: process.moduleLoadList }))
}
const spawn = cp.ChildProcess.prototype.spawn
cp.ChildProcess.prototype.spawn = function (options) {
  if (options.file !== 'git') write()
  else events.push('git ' + options.args.find((arg, i) => i > 0 && !arg.startsWith('-') && options.args[i - 1] !== '-c'))
  return spawn.call(this, options)
}
// proctor.yml is opened (never blocking: util/safe-file.ts) and read through the descriptor.
const openSync = fs.openSync
fs.openSync = function (file, ...rest) {
  if (String(file).endsWith('proctor.yml')) events.push('read proctor.yml')
  return openSync.call(this, file, ...rest)
}
module.syncBuiltinESMExports()
const load = Module._load
Module._load = function (request, ...rest) {
  const exports = load.call(this, request, ...rest)
  if (request === '@lydell/node-pty' && !exports.traced) {
    const ptySpawn = exports.spawn
    exports.spawn = function (...args) {
      write()
      return ptySpawn.apply(this, args)
    }
    exports.traced = true
  }
  return exports
}
process.on('exit', write)
`

/** Code that is zod's or yaml's, recognisable whichever chunk rollup put it in. */
const PARSER_CODE = [/\$ZodObject/, /YAMLParseError/]

const repos: TempRepo[] = []
afterEach(() => {
  for (const repo of repos.splice(0)) repo.cleanup()
})

/** The dist/ files the CLI had loaded when it started its agent (or exited). */
function loadedBefore(args: string[], files: Record<string, string> = {}): string[] {
  return traced(args, files).loaded
}

/**
 * Runs the CLI in a new repository (`files` committed, then `prepare`), tracing what it loads (dist/ files
 * and Node's own modules), the git processes it started and its reads of proctor.yml until the agent's
 * start, in order.
 */
function traced(
  args: string[],
  files: Record<string, string> = {},
  prepare: (repo: TempRepo) => void = () => {},
): { loaded: string[]; builtins: string[]; events: string[]; stdout: string; repo: TempRepo } {
  const repo = makeTempRepo({ files: { 'README.md': '# test\n', ...files } })
  repos.push(repo)
  repo.commitAll('init')
  prepare(repo)
  const tracer = join(repo.dir, '.git', 'tracer.mjs')
  const out = join(repo.dir, '.git', 'loaded.json')
  writeFileSync(tracer, TRACER)
  const env: NodeJS.ProcessEnv = { ...repo.env, TRACE_OUT: out, NO_COLOR: '1' }
  for (const key of Object.keys(env)) if (key.startsWith('GITHUB_')) delete env[key]
  const run = spawnSync(process.execPath, ['--import', tracer, cli, ...args], {
    cwd: repo.dir,
    env,
    encoding: 'utf8',
  })
  expect(run.status, run.stderr).toBe(0)
  const trace = JSON.parse(readFileSync(out, 'utf8')) as {
    loaded: string[]
    events: string[]
    internal: string[]
  }
  return {
    loaded: trace.loaded
      .filter((url) => url.startsWith('file:'))
      .map((url) => fileURLToPath(url))
      .filter((file) => file.startsWith(join(root, 'dist'))),
    // Node's own modules, however they were loaded (import, require, getBuiltinModule).
    builtins: trace.internal.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)),
    events: trace.events,
    stdout: run.stdout,
    repo,
  }
}

const parserIn = (files: string[]) => withCode(files, PARSER_CODE)
const withCode = (files: string[], code: RegExp[]) =>
  files.filter((file) => code.some((c) => c.test(readFileSync(file, 'utf8'))))
/** commander's code, the policy's glob matcher (picomatch), the push queue and the session's code. */
const COMMANDER_CODE = [/class CommanderError/]
const PICOMATCH_CODE = [/POSIX_REGEX_SOURCE/]
const OTHER_CODE = [/class PushQueue/, /class CheckpointTriggers/]
/** The detector, safe-regex2 (its load-time check of patterns) and the agent presets. */
const DETECTOR_CODE = [/class RegexSandbox/, /opts\.reps > opts\.limit/]
const PRESET_CODE = [/'codex:trust-folder'/]
/**
 * What a session uses only once its agent runs: the stop hooks' runner, the summary and the live hook lines,
 * the native Stop-hook adapters, revert_on_violation's restore, the agent presets (for --agent).
 */
const AFTER_SPAWN_CODE = [
  /function runStopHooks\(/,
  /function renderSessionTerminal\(/,
  /class HookStatus /,
  /function installNativeHooks\(/,
  /function revertPaths\(/,
  /function findAgentPreset\(/,
]

/** xterm's own code (the terminal renderer), whichever chunk it is in. */
const rendererIn = (files: string[]) =>
  files.filter((file) => /EscapeSequenceParser/.test(readFileSync(file, 'utf8')))

// module.registerHooks: Node >= 22.15 (the pinned Node 24 runs this suite).
describe.skipIf(typeof module.registerHooks !== 'function')('the built CLI loads only what it uses', () => {
  it('proctor run without a proctor.yml starts the agent before loading zod or yaml', () => {
    const loaded = loadedBefore(['run', '--quiet', '--no-pty', '--', 'sh', '-c', 'exit 0'])
    expect(loaded.some((file) => file.includes('session'))).toBe(true)
    expect(parserIn(loaded)).toEqual([])
  })

  it('proctor run with a proctor.yml parses it (with zod and yaml) before the agent starts', () => {
    const loaded = loadedBefore(['run', '--quiet', '--no-pty', '--', 'sh', '-c', 'exit 0'], {
      'proctor.yml': 'timeouts: { total: 10m }\n',
    })
    expect(parserIn(loaded).length).toBeGreaterThan(0)
  })

  it('proctor run starts the git processes its checkpoints need before the agent while it reads proctor.yml', () => {
    const { events } = traced(['run', '--quiet', '--no-pty', '--', 'sh', '-c', 'exit 0'], {
      'proctor.yml': 'timeouts: { total: 10m }\n',
    })
    // The user's git config is read first, before the file (proctor's own git config is made from it:
    // src/git/isolation.ts); the base commit (cat-file) starts as soon as that is made, while the file is
    // read or right after, before anything else.
    expect(events[0], events.join(', ')).toBe('git config')
    expect(events.slice(0, 3).sort(), events.join(', ')).toEqual([
      'git cat-file',
      'git config',
      'read proctor.yml',
    ])
  })

  it('proctor run does not load node:crypto before the agent starts', () => {
    const { builtins } = traced(['run', '--quiet', '--', 'sh', '-c', 'exit 0'], {
      'proctor.yml': 'timeouts: { total: 10m }\n',
    })
    expect(builtins).toContain('child_process')
    expect(builtins).not.toContain('crypto')
  })

  it('proctor run in a PTY starts the agent before loading the terminal renderer (xterm)', () => {
    const loaded = loadedBefore(['run', '--quiet', '--', 'sh', '-c', 'printf "hello from the agent"'], {
      'proctor.yml': 'timeouts: { total: 10m }\n',
    })
    expect(loaded.some((file) => file.includes('session'))).toBe(true)
    expect(rendererIn(loaded)).toEqual([])
  })

  it('proctor run with plain options starts its agent without commander', () => {
    const { loaded, stdout } = traced(
      ['run', '--quiet', '--json', '--', 'sh', '-c', 'printf done > agent.txt'],
      { 'proctor.yml': 'timeouts: { total: 10m }\n' },
    )
    expect(loaded.some((file) => file.includes('session'))).toBe(true)
    expect(withCode(loaded, COMMANDER_CODE)).toEqual([])
    // The flags were read: --json printed the report on stdout.
    expect(JSON.parse(stdout)).toMatchObject({ status: 'completed', verdict: 'allow' })
  })

  it('proctor run loads what only a running session needs (stop hooks, summary, native hooks, the policy) after the spawn', () => {
    const { loaded, builtins } = traced(['run', '--quiet', '--', 'sh', '-c', 'exit 0'], {
      'proctor.yml': 'timeouts: { total: 10m }\n',
    })
    expect(loaded.some((file) => file.includes('session'))).toBe(true)
    expect(withCode(loaded, AFTER_SPAWN_CODE)).toEqual([])
    // The policy's glob matcher: loaded with the checkpoint store, which opens after the spawn.
    expect(withCode(loaded, PICOMATCH_CODE)).toEqual([])
    // (worker_threads: the regex sandbox's, for a detect rule that needs it; fs/promises: the adapters'.)
    expect(builtins).toContain('child_process')
    expect(builtins).not.toContain('worker_threads')
    expect(builtins).not.toContain('fs/promises')
  })

  it('proctor run with anything else goes through commander as before', () => {
    const run = spawnSync(process.execPath, [cli, 'run', '--quite', '--', 'true'], {
      cwd: root,
      encoding: 'utf8',
    })
    expect(run.status).toBe(2)
    expect(run.stderr).toMatch(/unknown option '--quite'[\s\S]*\(Did you mean --quiet\?\)/)
  })

  it('proctor run checks --agent against the presets, and run --help lists them', () => {
    const run = spawnSync(process.execPath, [cli, 'run', '--agent', 'cursor', '--', 'true'], {
      cwd: root,
      encoding: 'utf8',
    })
    expect(run.status).toBe(2)
    expect(run.stderr).toMatch(/--agent cursor: unknown agent preset; choose one of: claude-code, /)
    const help = spawnSync(process.execPath, [cli, 'run', '--help'], { cwd: root, encoding: 'utf8' })
    expect(help.status).toBe(0)
    expect(help.stdout).toMatch(/--agent <preset> +the agent CLI's preset \(claude-code, /)
  })

  it('proctor checkpoints create takes its checkpoint without commander, the policy matcher or other commands', () => {
    const { loaded, builtins, stdout, repo } = traced(
      ['checkpoints', 'create', '--session=one-shot', '--json'],
      {},
      (r) => r.write('work.txt', 'agent work\n'),
    )
    expect(JSON.parse(stdout)).toMatchObject({ seq: 1, files_changed: ['work.txt'] })
    // Its options are read without node's parseArgs (a module and a cold first call for three options).
    expect(builtins).toContain('child_process')
    expect(builtins).not.toContain('internal/util/parse_args/parse_args')
    expect(repo.git(['show', 'refs/proctor/one-shot:work.txt'])).toBe('agent work\n')
    expect(withCode(loaded, COMMANDER_CODE)).toEqual([])
    expect(withCode(loaded, PICOMATCH_CODE)).toEqual([])
    expect(withCode(loaded, OTHER_CODE)).toEqual([])
    expect(parserIn(loaded)).toEqual([])
  })

  it('proctor checkpoints create withholds policy.forbidden_areas (its matcher loaded for them)', () => {
    const { loaded, stdout, repo } = traced(
      ['checkpoints', 'create', '--session', 'withheld'],
      { 'proctor.yml': 'policy:\n  forbidden_areas: [secrets/**]\n' },
      (r) => {
        r.write('secrets/key.txt', 'AKIA\n')
        r.write('work.txt', 'agent work\n')
      },
    )
    expect(stdout).toContain('withheld@1')
    expect(repo.git(['ls-tree', '-r', '--name-only', 'refs/proctor/withheld'])).not.toContain('secrets/')
    expect(withCode(loaded, PICOMATCH_CODE).length).toBeGreaterThan(0)
    expect(withCode(loaded, COMMANDER_CODE)).toEqual([])
  })

  it('proctor checkpoints create reads a proctor.yml without loading the detector, safe-regex2 or the presets', () => {
    const { loaded, stdout } = traced(
      ['checkpoints', 'create', '--session', 'configured'],
      { 'proctor.yml': 'agent:\n  command: [claude]\ncheckpoints:\n  max_file_size: 2MiB\n' },
      (r) => r.write('work.txt', 'agent work\n'),
    )
    expect(stdout).toContain('configured@1')
    expect(parserIn(loaded).length).toBeGreaterThan(0)
    expect(withCode(loaded, DETECTOR_CODE)).toEqual([])
    expect(withCode(loaded, PRESET_CODE)).toEqual([])
    expect(withCode(loaded, PICOMATCH_CODE)).toEqual([])
  })

  it('proctor checkpoints create still checks the detect rules a proctor.yml has, with their line', () => {
    const repo = makeTempRepo({ files: { 'proctor.yml': "detect:\n  - name: a\n    match: '(a+)+$'\n" } })
    repos.push(repo)
    repo.commitAll('init')
    const run = spawnSync(process.execPath, [cli, 'checkpoints', 'create', '--session', 'x'], {
      cwd: repo.dir,
      env: repo.env,
      encoding: 'utf8',
    })
    expect(run.status).toBe(2)
    expect(run.stderr).toContain('proctor.yml:3:12 detect[0].match: "(a+)+$" can backtrack catastrophically')
  })

  it('proctor checkpoints create with anything else goes through commander as before', () => {
    const run = spawnSync(process.execPath, [cli, 'checkpoints', 'create', '--sesion', 'x'], {
      cwd: root,
      encoding: 'utf8',
    })
    expect(run.status).toBe(2)
    expect(run.stderr).toMatch(/unknown option '--sesion'[\s\S]*\(Did you mean --session\?\)/)
  })

  it('proctor hooks list without a proctor.yml loads neither zod nor yaml', () => {
    const { loaded, stdout } = traced(['hooks', 'list'])
    expect(stdout).toContain('stop hooks')
    expect(parserIn(loaded)).toEqual([])
  })

  it('proctor --version loads neither the command tree nor any command', () => {
    const loaded = loadedBefore(['--version'])
    expect(loaded.map((file) => file.slice(join(root, 'dist').length))).not.toContainEqual(
      expect.stringMatching(/program|run|session|load/),
    )
    expect(parserIn(loaded)).toEqual([])
  })
})
