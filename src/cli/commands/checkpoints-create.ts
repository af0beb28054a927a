// `proctor checkpoints create`, apart from the other checkpoints commands: scripts run it once per
// checkpoint, so the whole process is its cost (issue 17: at most 1.2× raw plumbing plus a bare node start).
// main.ts runs it without commander when the arguments are the plain ones (plainCreateOptions), and it
// loads only the workspace's store (with git's runner) and the config loader: not the other subcommands,
// not the workspace's push and history code, and the policy's glob matcher only when policy.forbidden_areas
// is set and the worktree has changed paths to weigh.
import fs from 'node:fs'

import { ConfigError } from '../../config/errors.js'
import { loadConfig } from '../../config/load.js'
import type { Config } from '../../config/schema.js'
import { assertSessionId, checkpointRef } from '../../checkpoints/refs.js'
import { readGitDirs, refMayExist } from '../../git/on-disk.js'
import { Workspace } from '../../state/workspace.js'
import { skipReasonWord } from '../../report/words.js'
import { CliExit, ExitCode } from '../exit.js'
import { readPlainArgs, type OptionsOf } from '../plain-args.js'

// What main.ts needs to report a plain create's outcome, from this module: two more dynamic imports (each a
// resolution and a module job in node's loader) would cost the one-shot process for nothing, as this module
// loads both files anyway.
export { CliExit, exitCodeOf } from '../exit.js'
export { ConfigError } from '../../config/errors.js'

/** `checkpoints create`'s options, the one table of them: commander's command (checkpoints.ts) and the plain reader. */
export const CREATE_OPTIONS = [
  {
    long: 'session',
    value: 'id',
    help: 'append to this session (default: $PROCTOR_SESSION_ID, else a new manual-<time>)',
  },
  {
    long: 'config',
    short: 'c',
    value: 'file',
    help: 'the config file (default: proctor.yml at the repository root)',
  },
  { long: 'json', help: 'print the checkpoint record as JSON' },
] as const

export type CreateOptions = OptionsOf<typeof CREATE_OPTIONS>

export interface CreateIO {
  cwd: () => string
  /** Writes output; a promise when the text is still on its way (createCheckpoint waits for it). */
  stdout: (text: string) => void | Promise<void>
}

const processIO: CreateIO = {
  cwd: () => process.cwd(),
  stdout: writeStdout,
}

/**
 * Writes to fd 1 at once, without process.stdout: a one-shot create prints one line, and creating the
 * stream (on a pipe, a net.Socket with the stream machinery behind it) and flushing it before the exit cost
 * the process 1–2 ms. Only when the descriptor is non-blocking and full (EAGAIN) does the rest go through
 * process.stdout, and the promise resolves once it is written.
 */
function writeStdout(text: string): void | Promise<void> {
  const bytes = Buffer.from(text)
  let written = 0
  try {
    while (written < bytes.length) written += fs.writeSync(1, bytes, written)
    return
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error
  }
  return new Promise((resolve, reject) =>
    process.stdout.write(bytes.subarray(written), (error) => (error ? reject(error) : resolve())),
  )
}

/**
 * The options of `checkpoints create <args>` when they are only the documented ones, each once
 * (readPlainArgs: `--session x`, `--session=x`, `-c x`, `--config x`, `--config=x`, `--json`); null for
 * anything else (help, an unknown option or argument, a missing value, a repeat, `--`, `-cp.yml`), which
 * commander then parses and reports as it always has.
 */
export function plainCreateOptions(args: readonly string[]): CreateOptions | null {
  return readPlainArgs(args, CREATE_OPTIONS, false)?.options ?? null
}

/** Takes a checkpoint of the worktree now (trigger "manual") and prints it; nothing new if unchanged. */
export async function createCheckpoint(opts: CreateOptions, io: CreateIO = processIO): Promise<void> {
  // Nothing else happens in this process meanwhile: each git runs to completion (see runGitSync).
  const workspace = Workspace.find(io.cwd(), undefined, { synchronous: true })
  if (!workspace)
    throw new CliExit(ExitCode.usage, `${io.cwd()} is not inside a git repository; run proctor there`)
  let config: Config
  try {
    config = (await loadConfig({ file: opts.config, cwd: io.cwd() })).config
  } catch (error) {
    if (error instanceof ConfigError) throw new CliExit(ExitCode.usage, error.message)
    throw error
  }
  const session = opts.session ?? process.env.PROCTOR_SESSION_ID ?? manualSessionId()
  try {
    assertSessionId(session)
  } catch (error) {
    throw new CliExit(ExitCode.usage, (error as Error).message)
  }
  // Appending to a chain that exists (a session's, whose agent may be what runs this): the config read here
  // is the caller's to write (the worktree's proctor.yml, or -c), so it cannot widen the content scan
  // there — no secret_allowed_paths. A new chain (the user's own manual checkpoints) keeps them.
  // Read from disk (no git process: a one-shot create's are counted); when in doubt, it may exist.
  const dirs = readGitDirs(workspace.root)
  if (!dirs || refMayExist(dirs.commonDir, checkpointRef(session)))
    config = { ...config, policy: { ...config.policy, secret_allowed_paths: [] } }
  const store = await workspace.store(session, config, {
    // Withheld from it what policy.forbidden_areas names and every file the content scan finds a secret in,
    // as from a session's checkpoints: run from inside a session (PROCTOR_SESSION_ID), it adds to that
    // session's chain, which the session pushes.
    indexName: `cli-${process.pid}`,
  })
  try {
    const record = await store.create('manual')
    let output: string
    if (opts.json) output = `${JSON.stringify(record, null, 2)}\n`
    else if (!record)
      output = `nothing changed since the last checkpoint of ${session}; no checkpoint taken\n`
    else {
      output = `${session}@${record.seq} ${record.sha.slice(0, 12)}: ${record.files_changed.length} file(s)\n`
      for (const skipped of record.skipped) {
        const reason = record.skipped_reasons?.[skipped]
        output += `  skipped (${reason ? skipReasonWord(reason) : 'not recorded'}): ${skipped}\n`
      }
    }
    await io.stdout(output)
  } finally {
    await store.close()
  }
}

function manualSessionId(): string {
  return `manual-${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-')}`
}
