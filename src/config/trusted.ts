// proctor.yml as a commit holds it, for where the working tree's copy cannot be trusted: the agent runs as the
// same user and can rewrite the file — between the action's main step and its post step, or between a
// session's rounds. A commit is content-addressed: what it holds is what the maintainers committed.
import { relative } from 'node:path'
import { Git } from '../git/runner.js'
import { readRegularFile } from '../util/safe-file.js'
import { MAX_CONFIG_BYTES } from './load.js'

export type CommittedConfig =
  /** The commit is here and holds the file: these bytes. */
  | { kind: 'file'; bytes: Buffer }
  /** The commit is here and holds no such file: the defaults are what it configures. */
  | { kind: 'none' }
  /** The commit is not in this repository (a shallow clone of another ref): nothing to compare with. */
  | { kind: 'unknown' }

export async function configAtCommit(file: string, rev: string, cwd: string): Promise<CommittedConfig> {
  const git = new Git({ cwd })
  if ((await git.revParse(`${rev}^{commit}`)) === null) return { kind: 'unknown' }
  // `rev:./path` is the path relative to the current directory, as git resolves it.
  const [bytes] = await git.readBlobs([`${rev}:./${relative(cwd, file)}`])
  return bytes ? { kind: 'file', bytes } : { kind: 'none' }
}

/**
 * Whether the working tree's config file is not what `rev` holds: changed, added or removed. False when the
 * commit is not here (nothing to compare with).
 */
export async function configDiffers(file: string, rev: string, cwd: string): Promise<boolean> {
  const committed = await configAtCommit(file, rev, cwd)
  if (committed.kind === 'unknown') return false
  const worktree = readIfRegular(file)
  return committed.kind === 'none' ? worktree !== null : !worktree?.equals(committed.bytes)
}

/** The file's bytes when it is a regular file proctor would read, else null (missing, a FIFO, too large). */
export function readIfRegular(file: string): Buffer | null {
  try {
    return readRegularFile(file, MAX_CONFIG_BYTES + 1)
  } catch {
    return null
  }
}
