// The content scan of a checkpoint chain read back from git (action/judge.ts): what an agent job handed
// over is judged from its objects, so a secret that reached a checkpoint there (an older proctor, a chain
// built by hand) is still caught before anything is pushed.
import type { ChangedFile } from '../../checkpoints/diff.js'
import type { Git } from '../../git/runner.js'
import type { ContentScanner } from './scanner.js'

/** Bytes read per `cat-file --batch`: a chain of large files is read in parts, not all at once. */
const BATCH_BYTES = 16 * 1024 * 1024

/** Sets `secret` on each added or changed regular file of `commit`'s diff whose blob holds one. */
export async function markSecretBlobs(
  git: Git,
  commit: string,
  files: readonly ChangedFile[],
  scanner: Pick<ContentScanner, 'scanBytes'>,
): Promise<void> {
  // A path with a newline cannot be named to cat-file; it is an unsafe_path violation of its own.
  const readable = files.filter(
    (f) => f.status !== 'D' && (f.newMode === '100644' || f.newMode === '100755') && !f.path.includes('\n'),
  )
  for (let i = 0; i < readable.length;) {
    const batch: ChangedFile[] = []
    let bytes = 0
    while (i < readable.length && (batch.length === 0 || bytes + (readable[i]!.size ?? 0) <= BATCH_BYTES)) {
      bytes += readable[i]!.size ?? 0
      batch.push(readable[i++]!)
    }
    const blobs = await git.readBlobs(batch.map((f) => `${commit}:${f.path}`))
    for (const [k, file] of batch.entries()) {
      const blob = blobs[k]
      if (!blob) continue
      const found = await scanner.scanBytes(file.path, blob)
      if (found) file.secret = found
    }
  }
}
