// Parsers for git's NUL-separated (-z) output. Paths are taken byte-for-byte as git prints them with -z:
// no quoting, so spaces, newlines, tabs, unicode and leading dashes come through intact.

/** Split -z output into fields, dropping the empty field after the final NUL. */
export function splitNul(output: string): string[] {
  if (output === '') return []
  const fields = output.split('\0')
  if (fields[fields.length - 1] === '') fields.pop()
  return fields
}

export interface StatusEntry {
  /** Two-letter porcelain v1 code, e.g. ' M', '??', 'R '. */
  xy: string
  path: string
  /** Source path of a rename or copy. */
  origPath?: string
}

/** `git status --porcelain=v1 -z`: "XY path\0" and for renames/copies "XY new\0old\0". */
export function parseStatusZ(output: string): StatusEntry[] {
  const fields = splitNul(output)
  const entries: StatusEntry[] = []
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!
    const xy = field.slice(0, 2)
    const entry: StatusEntry = { xy, path: field.slice(3) }
    if (xy[0] === 'R' || xy[0] === 'C' || xy[1] === 'R' || xy[1] === 'C') entry.origPath = fields[++i]
    entries.push(entry)
  }
  return entries
}

/**
 * `git status --porcelain=v2 -z --branch` as a first checkpoint needs it: the commit HEAD names (null
 * when unborn), whether the index differs from HEAD anywhere (a staged change or a conflict), and the
 * paths whose worktree state differs from the index, tracked ones apart from untracked ones.
 */
export interface StatusV2 {
  head: string | null
  staged: boolean
  /** Tracked paths whose worktree file differs from the index (modified, deleted, type changed). */
  changed: string[]
  /** Untracked paths (a nested repository as `dir/`). */
  untracked: string[]
}

/**
 * Parses porcelain v2 -z: "# branch.oid <oid>|(initial)" headers, "1 XY sub mH mI mW hH hI path",
 * "2 XY sub mH mI mW hH hI Xscore path\0origPath", "u XY sub m1 m2 m3 mW h1 h2 h3 path", "? path".
 * X compares HEAD with the index and Y the index with the worktree ('.' = unchanged).
 */
export function parseStatusV2Z(output: string): StatusV2 {
  const result: StatusV2 = { head: null, staged: false, changed: [], untracked: [] }
  const fields = splitNul(output)
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!
    switch (field[0]) {
      case '#':
        if (field.startsWith('# branch.oid ') && field !== '# branch.oid (initial)')
          result.head = field.slice(13)
        break
      case '1':
      case '2': {
        if (field[2] !== '.') result.staged = true
        const path = afterSpaces(field, field[0] === '1' ? 8 : 9)
        if (field[3] !== '.') result.changed.push(path)
        if (field[0] === '2') i++ // the rename's source path
        break
      }
      case 'u':
        result.staged = true
        result.changed.push(afterSpaces(field, 10))
        break
      case '?':
        result.untracked.push(field.slice(2))
        break
    }
  }
  return result
}

/** What follows the `count`-th space of `field` (a path may hold spaces itself). */
function afterSpaces(field: string, count: number): string {
  let at = -1
  for (let n = 0; n < count; n++) at = field.indexOf(' ', at + 1)
  return field.slice(at + 1)
}

export interface RawDiffEntry {
  oldMode: string
  newMode: string
  oldSha: string
  newSha: string
  /** Status letter (A, M, D, T, R, C, U, X). */
  status: string
  /** Similarity score for R/C. */
  score: number | null
  path: string
  oldPath?: string
}

export interface NumstatEntry {
  added: number | null
  deleted: number | null
  path: string
  oldPath?: string
}

/**
 * Output of `diff-tree -r -z --raw --numstat`: first every raw record (":mode mode sha sha S\0path\0"
 * plus "\0new" for renames), then every numstat record ("a\td\tpath\0", or "a\td\t\0old\0new\0" for
 * renames; "-" counts mean binary).
 */
export function parseRawNumstatZ(output: string): { raw: RawDiffEntry[]; numstat: NumstatEntry[] } {
  const fields = splitNul(output)
  const raw: RawDiffEntry[] = []
  const numstat: NumstatEntry[] = []
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!
    if (field.startsWith(':')) {
      const [oldMode, newMode, oldSha, newSha, statusField] = field.slice(1).split(' ')
      const status = (statusField ?? '').charAt(0)
      const scoreText = (statusField ?? '').slice(1)
      const entry: RawDiffEntry = {
        oldMode: oldMode!,
        newMode: newMode!,
        oldSha: oldSha!,
        newSha: newSha!,
        status,
        score: scoreText ? Number(scoreText) : null,
        path: fields[++i]!,
      }
      if (status === 'R' || status === 'C') {
        entry.oldPath = entry.path
        entry.path = fields[++i]!
      }
      raw.push(entry)
      continue
    }
    const [added, deleted, path] = splitTabs(field)
    const entry: NumstatEntry = { added: count(added), deleted: count(deleted), path }
    if (path === '') {
      entry.oldPath = fields[++i]!
      entry.path = fields[++i]!
    }
    numstat.push(entry)
  }
  return { raw, numstat }
}

function splitTabs(field: string): [string, string, string] {
  const first = field.indexOf('\t')
  const second = field.indexOf('\t', first + 1)
  return [field.slice(0, first), field.slice(first + 1, second), field.slice(second + 1)]
}

function count(text: string): number | null {
  return text === '-' ? null : Number(text)
}

export interface LsFilesStageEntry {
  mode: string
  sha: string
  stage: number
  path: string
}

/** `git ls-files -s -z`: "mode sha stage\tpath\0". */
export function parseLsFilesStageZ(output: string): LsFilesStageEntry[] {
  return splitNul(output).map((field) => {
    const tab = field.indexOf('\t')
    const [mode, sha, stage] = field.slice(0, tab).split(' ')
    return { mode: mode!, sha: sha!, stage: Number(stage), path: field.slice(tab + 1) }
  })
}

export interface LsTreeEntry {
  mode: string
  type: string
  sha: string
  size: number | null
  path: string
}

/** `git ls-tree -r -z --long`: "mode type sha size\tpath\0" (size "-" for trees and gitlinks). */
export function parseLsTreeLongZ(output: string): LsTreeEntry[] {
  return splitNul(output).map((field) => {
    const tab = field.indexOf('\t')
    const [mode, type, sha, size] = field
      .slice(0, tab)
      .split(' ')
      .filter((part) => part !== '')
    return {
      mode: mode!,
      type: type!,
      sha: sha!,
      size: size === '-' ? null : Number(size),
      path: field.slice(tab + 1),
    }
  })
}

/** `git check-attr -z <attr> -- paths`: "path\0attr\0value\0" triples. */
export function parseCheckAttrZ(output: string): Map<string, string> {
  const fields = splitNul(output)
  const values = new Map<string, string>()
  for (let i = 0; i + 2 < fields.length; i += 3) {
    values.set(fields[i]!, fields[i + 2]!)
  }
  return values
}

export type PushRefStatus = 'ok' | 'forced' | 'new' | 'deleted' | 'rejected' | 'up-to-date'

export interface PushRefResult {
  status: PushRefStatus
  from: string
  to: string
  /** git's summary, e.g. "[rejected] (non-fast-forward)" reason text. */
  summary: string
}

/** `git push --porcelain`: lines "<flag>\t<from>:<to>\t<summary>" between "To <url>" and "Done". */
export function parsePushPorcelain(output: string): PushRefResult[] {
  const results: PushRefResult[] = []
  for (const line of output.split('\n')) {
    const match = /^([ +\-*=!])\t([^\t]*)\t(.*)$/.exec(line)
    if (!match) continue
    const [, flag, refs, summary] = match
    const colon = refs!.lastIndexOf(':')
    results.push({
      status: PUSH_FLAGS[flag!]!,
      from: refs!.slice(0, colon),
      to: refs!.slice(colon + 1),
      summary: summary!,
    })
  }
  return results
}

const PUSH_FLAGS: Record<string, PushRefStatus> = {
  ' ': 'ok',
  '+': 'forced',
  '*': 'new',
  '-': 'deleted',
  '!': 'rejected',
  '=': 'up-to-date',
}
