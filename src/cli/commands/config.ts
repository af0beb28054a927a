// proctor config validate|print|schema
import type { Command } from 'commander'
import { ConfigError } from '../../config/errors.js'
import { displayName, loadConfig, type LoadedConfig } from '../../config/load.js'
import { configToYaml } from '../../config/print.js'
import { configJsonSchemaText } from '../../config/json-schema.js'
import { CliExit, ExitCode } from '../exit.js'

export interface CommandIO {
  cwd: () => string
  stdout: (text: string) => void
  stderr: (text: string) => void
}

const processIO: CommandIO = {
  cwd: () => process.cwd(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}

interface FileOption {
  config?: string
}

export function registerConfigCommand(program: Command, io: CommandIO = processIO): Command {
  const config = program.command('config').description('check, show and describe proctor.yml')

  config
    .command('validate')
    .description('check proctor.yml and list every problem with file:line:col (exit 2 on errors)')
    .option('-c, --config <file>', 'the config file (default: proctor.yml at the repository root)')
    .option('--json', 'print {valid, file, issues, warnings} as JSON (for editors and CI annotations)')
    .action(async (opts: FileOption & { json?: boolean }) => {
      if (opts.json) return validateAsJson(opts, io)
      const loaded = await load(opts, io)
      const name = loaded.file ? displayName(loaded.file, io.cwd()) : null
      io.stdout(name ? `${name}: valid\n` : 'no proctor.yml found; the defaults apply\n')
    })

  config
    .command('print')
    .description(
      'print the effective config after defaults (YAML, or JSON with durations in ms and sizes in bytes)',
    )
    .option('-c, --config <file>', 'the config file (default: proctor.yml at the repository root)')
    .option('--json', 'print JSON: durations in milliseconds, sizes in bytes')
    .action(async (opts: FileOption & { json?: boolean }) => {
      const loaded = await load(opts, io)
      io.stdout(opts.json ? `${JSON.stringify(loaded.config, null, 2)}\n` : configToYaml(loaded.config))
    })

  config
    .command('schema')
    .description('print the JSON Schema of proctor.yml')
    .action(() => {
      io.stdout(configJsonSchemaText())
    })

  return config
}

/**
 * `config validate --json`: one JSON object on stdout whatever the outcome, each issue with its file, line,
 * column, key path, message and hint; the exit code is the same as without --json (2 when invalid).
 */
async function validateAsJson(opts: FileOption, io: CommandIO): Promise<void> {
  const print = (value: unknown) => io.stdout(`${JSON.stringify(value, null, 2)}\n`)
  try {
    const loaded = await loadConfig({ file: opts.config, cwd: io.cwd() })
    const file = loaded.file ? displayName(loaded.file, io.cwd()) : null
    print({ valid: true, file, issues: [], warnings: loaded.warnings })
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    const file = error.issues[0]?.file ?? opts.config ?? null
    print({ valid: false, file, issues: error.issues, warnings: [] })
    throw new CliExit(ExitCode.usage)
  }
}

async function load(opts: FileOption, io: CommandIO): Promise<LoadedConfig> {
  try {
    const loaded = await loadConfig({ file: opts.config, cwd: io.cwd() })
    for (const warning of loaded.warnings) io.stderr(`warning: ${warning}\n`)
    return loaded
  } catch (error) {
    if (error instanceof ConfigError) throw new CliExit(ExitCode.usage, error.message)
    throw error
  }
}
