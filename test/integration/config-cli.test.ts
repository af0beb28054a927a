import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Command } from 'commander'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { registerConfigCommand } from '../../src/cli/commands/config.js'
import { CliExit, exitCodeOf } from '../../src/cli/exit.js'
import { ConfigError, configJsonSchemaText } from '../../src/config/index.js'

let repo: string

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'proctor-config-cli-'))
  execFileSync('git', ['init', '-q', repo])
  mkdirSync(join(repo, 'src'))
})
afterEach(() => {
  rmSync(repo, { recursive: true, force: true })
})

interface Outcome {
  stdout: string
  stderr: string
  exitCode: number
  error?: string
}

/** Runs `proctor <args>` with the config command, in `cwd`, the way the CLI entry would. */
async function proctor(args: string[], cwd = repo): Promise<Outcome> {
  let stdout = ''
  let stderr = ''
  const program = new Command('proctor').exitOverride()
  program.configureOutput({ writeOut: (text) => (stdout += text), writeErr: (text) => (stderr += text) })
  registerConfigCommand(program, {
    cwd: () => cwd,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  })
  try {
    await program.parseAsync(args, { from: 'user' })
    return { stdout, stderr, exitCode: 0 }
  } catch (error) {
    return { stdout, stderr, exitCode: exitCodeOf(error), error: (error as Error).message }
  }
}

describe('proctor config validate', () => {
  it('says the file is valid, naming it relative to the current directory', async () => {
    writeFileSync(join(repo, 'proctor.yml'), 'stop_hooks:\n  - { name: tests, command: npm test }\n')
    expect(await proctor(['config', 'validate'])).toMatchObject({
      stdout: 'proctor.yml: valid\n',
      exitCode: 0,
    })
    expect(await proctor(['config', 'validate'], join(repo, 'src'))).toMatchObject({
      stdout: '../proctor.yml: valid\n',
      exitCode: 0,
    })
  })

  it('lists every error and exits 2', async () => {
    writeFileSync(join(repo, 'proctor.yml'), 'agent:\n  comand: [x]\ntimeouts:\n  idle: 5x\n')
    const outcome = await proctor(['config', 'validate'])
    expect(outcome.exitCode).toBe(2)
    expect(outcome.stdout).toBe('')
    expect(outcome.error).toBe(
      [
        'proctor.yml:2:3 agent.comand: unknown key "comand" — did you mean "command"?',
        'proctor.yml:4:9 timeouts.idle: "5x" is not a duration; write it like 500ms, 30s, 10m, 1h or 1h30m',
      ].join('\n'),
    )
  })

  it('--json prints one object with every issue (file, line, column, key, hint) and still exits 2', async () => {
    writeFileSync(join(repo, 'proctor.yml'), 'agent:\n  comand: [x]\n')
    const bad = await proctor(['config', 'validate', '--json'])
    expect(bad.exitCode).toBe(2)
    expect(JSON.parse(bad.stdout)).toEqual({
      valid: false,
      file: 'proctor.yml',
      issues: [
        {
          file: 'proctor.yml',
          line: 2,
          col: 3,
          path: 'agent.comand',
          message: 'unknown key "comand"',
          hint: 'did you mean "command"?',
        },
      ],
      warnings: [],
    })
    writeFileSync(join(repo, 'proctor.yml'), 'max_stop_rounds: 2\n')
    const good = await proctor(['config', 'validate', '--json'])
    expect(good.exitCode).toBe(0)
    expect(JSON.parse(good.stdout)).toEqual({ valid: true, file: 'proctor.yml', issues: [], warnings: [] })
  })

  it('with no file, says the defaults apply', async () => {
    expect(await proctor(['config', 'validate'])).toMatchObject({
      stdout: 'no proctor.yml found; the defaults apply\n',
      exitCode: 0,
    })
  })

  it('-c picks another file, and a missing one exits 2', async () => {
    writeFileSync(join(repo, 'other.yml'), 'max_stop_rounds: 2\n')
    expect(await proctor(['config', 'validate', '-c', 'other.yml'])).toMatchObject({
      stdout: 'other.yml: valid\n',
    })
    const missing = await proctor(['config', 'validate', '-c', 'missing.yml'])
    expect(missing.exitCode).toBe(2)
    expect(missing.error).toMatch(/^missing\.yml: config file not found/)
  })

  it('prints warnings to stderr without failing', async () => {
    writeFileSync(join(repo, 'proctor.yml'), 'hooks_async_pool_size: 0\n')
    expect(await proctor(['config', 'validate'])).toEqual({
      stdout: 'proctor.yml: valid\n',
      stderr: 'warning: proctor.yml:1:24 hooks_async_pool_size: 0 is outside 1–100; using 1\n',
      exitCode: 0,
    })
  })
})

describe('proctor config print', () => {
  it('prints the effective config as YAML with units', async () => {
    writeFileSync(join(repo, 'proctor.yml'), 'timeouts: { idle: 90s }\n')
    const { stdout, exitCode } = await proctor(['config', 'print'])
    expect(exitCode).toBe(0)
    expect(stdout).toMatch(/^timeouts:\n {2}total: 30m\n {2}idle: 90s\n {2}grace: 5s$/m)
    expect(stdout).toContain('branch: proctor/{session}')
  })

  it('--json prints ms and bytes', async () => {
    writeFileSync(join(repo, 'proctor.yml'), 'timeouts: { idle: 90s }\n')
    const { stdout } = await proctor(['config', 'print', '--json'])
    const printed = JSON.parse(stdout) as {
      timeouts: { idle: number }
      checkpoints: { max_file_size: number }
    }
    expect(printed.timeouts.idle).toBe(90_000)
    expect(printed.checkpoints.max_file_size).toBe(5 * 1024 * 1024)
  })

  it('fails with exit 2 on a bad config', async () => {
    writeFileSync(join(repo, 'proctor.yml'), 'agent: [\n')
    expect((await proctor(['config', 'print'])).exitCode).toBe(2)
  })
})

describe('proctor config schema', () => {
  it('prints the JSON Schema', async () => {
    const { stdout, exitCode } = await proctor(['config', 'schema'])
    expect(exitCode).toBe(0)
    expect(stdout).toBe(configJsonSchemaText())
  })
})

describe('exit codes', () => {
  it('maps CliExit, ConfigError, usage errors and other failures', async () => {
    expect(exitCodeOf(new CliExit(124))).toBe(124)
    expect(exitCodeOf(new ConfigError([]))).toBe(2)
    expect(exitCodeOf(new Error('boom'))).toBe(1)
    const unknownOption = await proctor(['config', 'validate', '--nope'])
    expect(unknownOption.exitCode).toBe(2)
    expect(unknownOption.stderr).toContain("unknown option '--nope'")
  })
})
