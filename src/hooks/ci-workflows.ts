// What the `ci-checks` hook must not trust: CI whose definition the agent changed. GitHub runs the workflows
// of the commit it was given (the pushed commit for `push`, the merge commit for `pull_request`), so a
// checkpoint that rewrites a required job to `run: "true"`, adds a workflow reporting a check of the same
// name, or edits a local action a workflow `uses:` makes CI green without the work passing. This lists the
// paths of the workflow definitions the agent changed since the session's baseline (checkpoint 0: the
// worktree as the user left it), so the hook blocks before it pushes. docs/hooks.md#the-prs-ci-as-a-stop-hook.
import type { Git } from '../git/runner.js'

/** Where GitHub reads workflows, and where local actions conventionally live. */
const DEFINITION_DIRS = ['.github/workflows', '.github/actions']

/** The files that define an action in a directory (`uses: ./` names the repository's root). */
const ACTION_FILES = ['action.yml', 'action.yaml', 'Dockerfile']

/** A workflow file holding more than this is no workflow a person wrote: its `uses:` are not read. */
const MAX_WORKFLOW = 1024 * 1024

/** One changed path of CI's definition; `added`: the baseline did not have it. */
export interface ChangedDefinition {
  path: string
  added: boolean
}

/**
 * The paths changed between `baseline` (null: an unborn HEAD, the empty tree) and `sha` that define what
 * CI runs: anything under .github/workflows/ or .github/actions/, and the files of each local action
 * (`uses: ./dir`) a workflow names on either side. Sorted by path; empty when the agent left CI as it was.
 */
export async function changedWorkflowDefinitions(
  git: Git,
  baseline: string | null,
  sha: string,
): Promise<ChangedDefinition[]> {
  const from = baseline ?? (await git.emptyTree())
  // Without rename detection, a moved file is its old path deleted and its new path added: both count.
  const { raw } = await git.diffTreeZ(from, sha, { renames: false })
  if (raw.length === 0) return []
  const actionDirs = await localActionDirs(git, [from, sha])
  // A path inside a definition directory, or one of its parents (`.github` turned into a symlink or a file).
  const within = (path: string, dir: string): boolean =>
    `${path}/`.startsWith(`${dir}/`) || dir.startsWith(`${path}/`)
  const defines = (path: string): boolean =>
    DEFINITION_DIRS.some((dir) => within(path, dir)) ||
    actionDirs.some((dir) => (dir === '' ? ACTION_FILES.includes(path) : within(path, dir)))
  return raw
    .filter((entry) => defines(entry.path))
    .map((entry) => ({ path: entry.path, added: entry.status === 'A' }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

/** The directories (repository-relative, '' for the root) that the workflows of `trees` name in `uses: ./…`. */
async function localActionDirs(git: Git, trees: readonly string[]): Promise<string[]> {
  const blobs = new Set<string>()
  for (const tree of trees) {
    for (const entry of await git.lsTree(tree, ['.github/workflows'])) {
      if (entry.type === 'blob' && /\.ya?ml$/.test(entry.path) && (entry.size ?? 0) <= MAX_WORKFLOW)
        blobs.add(entry.sha)
    }
  }
  const dirs = new Set<string>()
  for (const blob of await git.readBlobs([...blobs])) {
    if (blob) for (const dir of usesLocal(blob.toString('utf8'))) dirs.add(dir)
  }
  return [...dirs]
}

/**
 * The local paths a workflow's `uses:` name (`uses: ./tools/setup`, `- uses: "./"`), normalized to a
 * repository-relative directory without `./` or a trailing slash. Read lexically: a `uses:` inside a block
 * scalar counts too, which only widens what is protected.
 */
export function usesLocal(workflow: string): string[] {
  const found: string[] = []
  for (const match of workflow.matchAll(/(?:^|[\s{,-])uses\s*:\s*['"]?\.\/([^\s'"#@,}]*)/gm)) {
    const dir = match[1]!
      .split('/')
      .filter((part) => part !== '' && part !== '.')
      .join('/')
    found.push(dir)
  }
  return found
}
