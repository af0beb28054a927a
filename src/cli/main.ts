// The `proctor` binary: builds the command tree, runs it, and turns outcomes into exit codes
// (README, "Exit codes": 0 ok · 1 failed/blocked · 2 usage/config · 124 timeout · 130 SIGINT · 143 SIGTERM).
import { buildProgram } from './program.js'
import { CliExit, exitCodeOf } from './exit.js'
import { ConfigError } from '../config/errors.js'

async function main(argv: string[]): Promise<number> {
  const program = await buildProgram(argv)
  try {
    await program.parseAsync(argv)
    return 0
  } catch (error) {
    if (error instanceof CliExit) {
      if (error.message)
        process.stderr.write(error.message.endsWith('\n') ? error.message : error.message + '\n')
      return error.exitCode
    }
    if (error instanceof ConfigError) {
      process.stderr.write(error.message + '\n')
      return 2
    }
    const code = exitCodeOf(error)
    // commander already printed its own usage messages (and help/version exit 0).
    if (isCommanderError(error)) return code
    process.stderr.write(`proctor: ${(error as Error)?.stack ?? String(error)}\n`)
    return 1
  }
}

function isCommanderError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    String((error as { code?: unknown }).code).startsWith('commander.')
  )
}

const code = await main(process.argv)
// Exit explicitly once stdout and stderr are flushed: a stray handle (a watcher, a stdin listener) must
// never keep a finished CLI alive in CI.
process.exitCode = code
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)))
