// What changed between two trees, in the shape the policy engine judges (src/policy takes ChangedFile[]).
import type { CatFileInfo, Git } from '../git/runner.js'
import type { NumstatEntry, RawDiffEntry } from '../git/nul.js'
import type { ContentFinding } from '../policy/secrets/types.js'

export type ChangeStatus = 'A' | 'M' | 'D' | 'T' | 'R'

export interface ChangedFile {
  /** Path after the change (for deletions: the deleted path), relative to the repository root, `/`-separated. */
  path: string
  status: ChangeStatus
  /** Rename source. */
  oldPath?: string
  /** Octal git mode before ("100644", "100755", "120000" symlink, "160000" gitlink), null when added. */
  oldMode: string | null
  /** Mode after, null when deleted. */
  newMode: string | null
  /** Bytes of the new blob; null for deletions and gitlinks. */
  size: number | null
  /** For a symlink after the change: where it points (as stored in git). */
  symlinkTarget?: string
  /** Null for binary files, deletions of binaries and gitlinks. */
  linesAdded: number | null
  linesDeleted: number | null
  /** The blob before the change (absent when added) and after it (absent when deleted): for rules that read content. */
  oldBlob?: string
  newBlob?: string
  /** What the content scan found in the new content (a withheld file, or a blob judge.ts read). */
  secret?: ContentFinding
}

export const SYMLINK_MODE = '120000'
export const GITLINK_MODE = '160000'
const NULL_MODE = '000000'

/**
 * Every file that differs between `fromTree` and `toTree` (trees or commits; null `fromTree` = the empty
 * tree, i.e. everything is added). Renames are detected (status R with oldPath); copies are not.
 */
export async function diffTrees(git: Git, fromTree: string | null, toTree: string): Promise<ChangedFile[]> {
  const from = fromTree ?? (await git.emptyTree())
  const diff = await git.diffTreeZ(from, toTree)
  return changedFiles(git, diff, await git.catFileInfo(newBlobsOf(diff.raw)))
}

/**
 * diffTrees for several pairs of trees named by full object ids, with one `diff-tree` and one `cat-file`
 * for them all (a checkpoint's diffs since the previous checkpoint and since the baseline).
 */
export async function diffTreePairs(
  git: Git,
  pairs: readonly (readonly [string, string])[],
): Promise<ChangedFile[][]> {
  const diffs = await git.diffTreesZ(pairs)
  const sizes = await git.catFileInfo(diffs.flatMap((diff) => newBlobsOf(diff.raw)))
  return Promise.all(diffs.map((diff) => changedFiles(git, diff, sizes)))
}

function newBlobsOf(raw: readonly RawDiffEntry[]): string[] {
  return raw.filter((e) => e.newMode !== NULL_MODE && e.newMode !== GITLINK_MODE).map((e) => e.newSha)
}

async function changedFiles(
  git: Git,
  { raw, numstat }: { raw: RawDiffEntry[]; numstat: NumstatEntry[] },
  sizes: ReadonlyMap<string, CatFileInfo | null>,
): Promise<ChangedFile[]> {
  const lines = new Map(numstat.map((n) => [n.path, n]))
  const files: ChangedFile[] = []
  for (const entry of raw) {
    const status = normalizeStatus(entry.status)
    const deleted = entry.newMode === NULL_MODE
    const gitlink = entry.newMode === GITLINK_MODE || entry.oldMode === GITLINK_MODE
    const counts = gitlink ? undefined : lines.get(entry.path)
    const file: ChangedFile = {
      path: entry.path,
      status,
      oldMode: entry.oldMode === NULL_MODE ? null : entry.oldMode,
      newMode: deleted ? null : entry.newMode,
      size: deleted || entry.newMode === GITLINK_MODE ? null : (sizes.get(entry.newSha)?.size ?? null),
      linesAdded: counts?.added ?? null,
      linesDeleted: counts?.deleted ?? null,
    }
    if (entry.oldPath !== undefined) file.oldPath = entry.oldPath
    if (entry.oldMode !== NULL_MODE) file.oldBlob = entry.oldSha
    if (!deleted) file.newBlob = entry.newSha
    if (entry.newMode === SYMLINK_MODE) {
      file.symlinkTarget = (await git.catFileBlob(entry.newSha)).toString('utf8')
    }
    files.push(file)
  }
  return files
}

/** Trees hold no unmerged or unknown entries; a copy (never requested) would be an addition. */
function normalizeStatus(letter: string): ChangeStatus {
  if (letter === 'A' || letter === 'M' || letter === 'D' || letter === 'T' || letter === 'R') return letter
  if (letter === 'C') return 'A'
  return 'M'
}

/** Paths a change touches (both sides of a rename), for reports and restore. */
export function touchedPaths(files: readonly ChangedFile[]): string[] {
  const paths: string[] = []
  for (const file of files) {
    if (file.oldPath !== undefined) paths.push(file.oldPath)
    paths.push(file.path)
  }
  return paths
}
