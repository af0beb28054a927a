// `proctor completion bash|zsh|fish`, as a user loads it: the script the CLI prints is sourced in a real
// bash and asked what `proctor che<tab>` and friends complete to; zsh's and fish's scripts are parsed by
// zsh -n and fish -n, and fish answers `complete -C` for real (when those shells are installed), else
// their structure is checked. Everything offered comes from commander's tree, so a command added to the
// program completes with no list to edit: the last test registers one and sees it offered.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bashScript } from '../../src/cli/completion/bash.js'
import { completionTree } from '../../src/cli/completion/tree.js'
import { buildProgram } from '../../src/cli/program.js'
import { proctorCli } from '../helpers/proctor-process.js'

const dir = mkdtempSync(join(tmpdir(), 'proctor-completion-'))
const scripts: Record<'bash' | 'zsh' | 'fish', string> = { bash: '', zsh: '', fish: '' }
const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0

beforeAll(async () => {
  for (const shell of ['bash', 'zsh', 'fish'] as const) {
    const ran = await proctorCli(['completion', shell], { cwd: dir, env: process.env })
    expect(ran.code, ran.stderr).toBe(0)
    scripts[shell] = ran.stdout
    writeFileSync(join(dir, `proctor.${shell}`), ran.stdout)
  }
}, 120_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** What the bash script completes for `words` (the last one is the word under the cursor). */
function bashCompletes(script: string, words: string[]): string[] {
  const file = join(dir, `probe-${Math.random().toString(36).slice(2)}.bash`)
  writeFileSync(file, script)
  const probe = [
    `source ${JSON.stringify(file)}`,
    'COMP_WORDS=("$@")',
    'COMP_CWORD=$((${#COMP_WORDS[@]} - 1))',
    '_proctor',
    `printf '%s\\n' "\${COMPREPLY[@]}"`,
    // The registration bash uses to call it, falling back to files where it offers nothing.
    `complete -p proctor >&2`,
  ].join('\n')
  const ran = spawnSync('bash', ['--norc', '--noprofile', '-c', probe, 'bash', ...words], {
    encoding: 'utf8',
  })
  expect(ran.status, ran.stderr).toBe(0)
  expect(ran.stderr).toBe('complete -o default -F _proctor proctor\n')
  return ran.stdout.split('\n').filter(Boolean)
}

describe('proctor completion bash', () => {
  const completes = (...words: string[]) => bashCompletes(scripts.bash, words)

  it('completes commands, subcommands, options and their choices in a real bash', () => {
    expect(completes('proctor', 'che')).toEqual(['check', 'checkpoints'])
    expect(completes('proctor', 'checkpoints', '')).toEqual([
      'create',
      'list',
      'show',
      'diff',
      'restore',
      'push',
      'help',
    ])
    expect(completes('proctor', 'run', '--idle')).toEqual(['--idle-timeout'])
    expect(completes('proctor', 'run', '-')).toEqual(
      expect.arrayContaining(['--agent', '--timeout', '--no-pty', '-c']),
    )
    expect(completes('proctor', 'init', '--agent', 'co')).toEqual(['codex', 'copilot'])
    expect(completes('proctor', 'init', '--trigger', '')).toEqual(['mention', 'label', 'pull_request'])
    expect(completes('proctor', 'completion', '')).toEqual(['bash', 'zsh', 'fish'])
    expect(completes('proctor', 'help', 'ba')).toEqual(['batch'])
  })

  it('skips option values and --opt= on the way to the subcommand; nothing of its own after --', () => {
    // `--session create` names a session: create is a value there, not the subcommand.
    expect(completes('proctor', 'checkpoints', 'list', '--session', 'list', '--j')).toEqual(['--json'])
    expect(completes('proctor', 'config', '-h', 'va')).toEqual(['validate'])
    expect(completes('proctor', 'init', '--layout', '=', 'tw')).toEqual(['two-job'])
    expect(completes('proctor', 'init', '--layout', '=')).toEqual(['one-job', 'two-job'])
    // A value with nothing to choose from (a file, a duration) and the agent's argv: bash's own files.
    expect(completes('proctor', 'run', '-c', '')).toEqual([])
    expect(completes('proctor', 'run', '--', 'ch')).toEqual([])
    expect(completes('proctor', 'nonsense', '')).toEqual([])
  })

  it('is generated from the program: a command registered there is offered with its options', async () => {
    const program = await buildProgram()
    program.command('zzz-new').description('registered by the test').option('--shiny <colour>', 'a colour')
    program.commands.find((c) => c.name() === 'zzz-new')!.options[0]!.choices(['red', 'blue'])
    const script = bashScript(completionTree(program))
    expect(bashCompletes(script, ['proctor', 'zzz'])).toEqual(['zzz-new'])
    expect(bashCompletes(script, ['proctor', 'zzz-new', '--shiny', ''])).toEqual(['red', 'blue'])
  })

  it('refuses a shell it has no script for, naming the ones it has', async () => {
    const ran = await proctorCli(['completion', 'powershell'], { cwd: dir, env: process.env })
    expect(ran.code).toBe(2)
    expect(ran.stderr).toMatch(/powershell.*bash, zsh, fish/)
  })
})

describe('proctor completion zsh', () => {
  it('is a #compdef file that registers itself and carries the descriptions', () => {
    expect(scripts.zsh.split('\n')[0]).toBe('#compdef proctor')
    expect(scripts.zsh).toContain('compdef _proctor proctor')
    expect(scripts.zsh).toMatch(/'checkpoints:list, inspect, restore and push/)
    expect(scripts.zsh).toContain(`('init|--agent') items=('claude-code' 'codex'`)
  })

  it.skipIf(!has('zsh'))('parses (zsh -n) and completes through the same walk', () => {
    expect(spawnSync('zsh', ['-n', join(dir, 'proctor.zsh')], { encoding: 'utf8' }).stderr).toBe('')
    // zsh's completion widgets need a terminal; stand in for the three builtins the script calls.
    const probe = [
      'compdef() { :; }',
      'compadd() { [[ $1 == -a ]] && print -rl -- ${(P)2}; }',
      '_describe() { print -rl -- ${(P)4%%:*}; }',
      '_files() { print -r -- "(files)"; }',
      `source ${JSON.stringify(join(dir, 'proctor.zsh'))}`,
      'words=("$@"); CURRENT=${#words}; _proctor',
    ].join('\n')
    const zsh = (...words: string[]) =>
      spawnSync('zsh', ['-f', '-c', probe, 'zsh', ...words], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean)
    expect(zsh('proctor', 'checkpoints', '')).toEqual([
      'create',
      'list',
      'show',
      'diff',
      'restore',
      'push',
      'help',
    ])
    expect(zsh('proctor', 'init', '--trigger', '')).toEqual(['mention', 'label', 'pull_request'])
    expect(zsh('proctor', 'run', '--', '')).toEqual(['(files)'])
  })
})

describe('proctor completion fish', () => {
  it('guards every completion by the command path typed so far', () => {
    expect(scripts.fish).toContain(
      `complete -c proctor -f -n '__proctor_at \\'checkpoints\\'' -a 'create' -d 'take a checkpoint`,
    )
    expect(scripts.fish).toContain(
      `complete -c proctor -n '__proctor_at \\'init\\'' -l 'agent' -x -a 'claude-code codex gemini copilot opencode shell'`,
    )
  })

  it.skipIf(!has('fish'))('parses (fish -n) and fish itself completes with it (complete -C)', () => {
    expect(spawnSync('fish', ['-n', join(dir, 'proctor.fish')], { encoding: 'utf8' }).stderr).toBe('')
    const fish = (line: string) =>
      spawnSync(
        'fish',
        [
          '--no-config',
          '-c',
          `source ${JSON.stringify(join(dir, 'proctor.fish'))}; complete -C $argv[1]`,
          line,
        ],
        { encoding: 'utf8' },
      )
        .stdout.split('\n')
        .filter(Boolean)
        .map((entry) => entry.split('\t')[0])
    expect(fish('proctor che')).toEqual(['check', 'checkpoints'])
    expect(fish('proctor checkpoints --json cr')).toEqual(['create'])
    expect(fish('proctor init --layout ')).toEqual(['one-job', 'two-job'])
    expect(fish('proctor run --idle')).toEqual(['--idle-timeout'])
  })
})
