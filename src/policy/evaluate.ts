// Policy on one diff: the changed files of a checkpoint (scope "checkpoint", against the previous
// checkpoint) or of the whole session (scope "cumulative", against the base) → violations.
import { readlinkSync } from 'node:fs'
import { join } from 'node:path'
import picomatch from 'picomatch'
import type { Violation } from '../report/model.js'
import { formatSize } from '../util/units.js'
import { compilePolicy, type CompiledPolicy } from './compile.js'
import { severityRank } from './severity.js'
import { findSymlinkEscape } from './symlink.js'
import { secretFinding } from './secrets/finding.js'
import {
  MODE_EXECUTABLE,
  MODE_SYMLINK,
  WHOLE_DIFF,
  type ChangedFile,
  type Constraint,
  type PolicyConfig,
} from './types.js'

export interface PolicyInput {
  files: ChangedFile[]
  /** The checkpoint the diff belongs to (null before the first checkpoint, e.g. `proctor check`). */
  checkpoint: number | null
  /** Absolute path of the worktree; used to resolve symlinks. */
  worktree: string
  policy: PolicyConfig
  scope: 'checkpoint' | 'cumulative'
}

type Finding = Omit<Violation, 'checkpoint' | 'severity'> & { constraint: Constraint }

const MODE_GITLINK = '160000'

/**
 * Every violation of `policy` in the diff, one per (file, constraint), in the order of the files.
 * Throws PolicyConfigError when the policy itself is unusable (bad glob, unknown severity key).
 */
export function evaluatePolicy(input: PolicyInput): Violation[] {
  const policy = compilePolicy(input.policy)
  const findings: Finding[] = []
  for (const file of input.files) {
    findings.push(...unsafePathFindings(file))
    findings.push(...areaFindings(file, policy))
    const symlink = symlinkFinding(file, input.worktree)
    if (symlink) findings.push(symlink)
    const executable = executableFinding(file, policy.config)
    if (executable) findings.push(executable)
    const size = fileSizeFinding(file, policy.config)
    if (size) findings.push(size)
    const secret = secretFinding(file, displayPath(file.path))
    if (secret) findings.push({ ...secret, constraint: 'secret_content' })
  }
  const diff = diffSizeFinding(input.files, policy.config, input.scope)
  if (diff) findings.push(diff)
  return dedupeViolations(
    findings.map((f) => ({ checkpoint: input.checkpoint, severity: policy.severityOf(f.constraint), ...f })),
  )
}

/** Keeps the first violation per (file, constraint), raised to the highest severity seen for it. */
export function dedupeViolations(violations: Iterable<Violation>): Violation[] {
  const byKey = new Map<string, Violation>()
  for (const v of violations) {
    const key = `${v.constraint}\0${v.file}`
    const seen = byKey.get(key)
    if (!seen) byKey.set(key, v)
    else if (severityRank(v.severity) > severityRank(seen.severity))
      byKey.set(key, { ...seen, severity: v.severity })
  }
  return [...byKey.values()]
}

/** The paths a change touches, each with how it was touched, for the area rules. */
function touchedPaths(file: ChangedFile): { path: string; how: string; existed: boolean }[] {
  if (file.status === 'R' && file.oldPath !== undefined) {
    return [
      { path: file.path, how: `renamed from ${displayPath(file.oldPath)}`, existed: false },
      { path: file.oldPath, how: `renamed to ${displayPath(file.path)}`, existed: true },
    ]
  }
  const how = { A: 'added', M: 'modified', D: 'deleted', T: 'changed type', R: 'renamed' }[file.status]
  return [{ path: file.path, how, existed: file.status !== 'A' }]
}

function areaFindings(file: ChangedFile, policy: CompiledPolicy): Finding[] {
  const findings: Finding[] = []
  for (const { path, how, existed } of touchedPaths(file)) {
    const shown = displayPath(path)
    const forbidden = policy.forbidden.match(path)
    if (forbidden) {
      findings.push({
        file: path,
        constraint: 'forbidden_area',
        message: `${shown} was ${how}, but it is in a forbidden area (policy.forbidden_areas "${forbidden}")`,
        suggestion: `Undo the change to ${shown}${existed ? '' : ` (delete it: rm ${shellQuote(path)})`}; nothing matching "${forbidden}" may be changed. If the agent should work there, remove "${forbidden}" from policy.forbidden_areas.`,
      })
    }
    // Protection covers additions too: a new workflow under a protected .github/workflows/ runs with the
    // repository's secrets as surely as an edited one.
    const protectedBy = policy.protected.match(path)
    if (protectedBy) {
      findings.push({
        file: path,
        constraint: 'protected_area',
        message: `${shown} is protected (policy.protected_areas "${protectedBy}") and was ${how}`,
        suggestion: existed
          ? `Restore ${shown} to its original content (git checkout HEAD -- ${shellQuote(path)}). To allow edits, add "!${path}" to policy.protected_areas.`
          : `Remove ${shown} (rm ${shellQuote(path)}); nothing may be added under "${protectedBy}". To allow it, add "!${path}" to policy.protected_areas.`,
      })
    }
    if (!policy.allowed.empty && !policy.allowed.match(path)) {
      const areas = policy.config.allowed_areas.filter((p) => !p.startsWith('!'))
      const home = baseDir(areas[0]!)
      findings.push({
        file: path,
        constraint: 'outside_allowed',
        message: `${shown} was ${how}, outside the allowed areas (${areas.map((p) => `"${p}"`).join(', ')})`,
        suggestion: `Move the change under ${home ? `${home}/` : `an allowed area`} or add the path to policy.allowed_areas.`,
      })
    }
  }
  return findings
}

/** C0 controls and DEL: a newline in a path forges lines in logs, commit messages and `git status`. */
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/

/** A path as it can be printed: JSON-quoted when it holds control characters. */
export function displayPath(path: string): string {
  return CONTROL_CHARS.test(path) ? JSON.stringify(path) : path
}

function unsafePathFindings(file: ChangedFile): Finding[] {
  if (file.status === 'D') return []
  const path = file.path
  if (!CONTROL_CHARS.test(path)) return []
  return [
    {
      file: path,
      constraint: 'unsafe_path',
      message: `${displayPath(path)} was ${file.status === 'A' ? 'added' : 'changed'}, and its name holds control characters (a newline or tab in a file name forges lines in logs and tools)`,
      suggestion: `Rename it to a name without control characters (only printable characters).`,
    },
  ]
}

function symlinkFinding(file: ChangedFile, worktree: string): Finding | null {
  if (file.status === 'D' || file.newMode !== MODE_SYMLINK) return null
  const target = file.symlinkTarget ?? readLinkOrNull(join(worktree, file.path))
  if (target === null) return null
  const escape = findSymlinkEscape(file.path, target, worktree)
  if (!escape) return null
  const where =
    escape.reason === 'git_dir'
      ? `into the repository's .git directory (${escape.resolved})`
      : `outside the worktree (${escape.resolved})`
  return {
    file: file.path,
    constraint: 'symlink_escape',
    message: `${displayPath(file.path)} is a symlink to "${target}", which resolves ${where}${escape.via ? ` through the link ${escape.via}` : ''}`,
    suggestion: `Replace ${displayPath(file.path)} with a regular file, or point it at a path inside the repository.`,
  }
}

function executableFinding(file: ChangedFile, config: PolicyConfig): Finding | null {
  if (config.allow_new_executables || file.status === 'D') return null
  if (file.newMode !== MODE_EXECUTABLE || file.oldMode === MODE_EXECUTABLE) return null
  const what =
    file.oldMode === null
      ? `was added as an executable (mode ${MODE_EXECUTABLE})`
      : `was made executable (mode ${file.oldMode} → ${MODE_EXECUTABLE})`
  return {
    file: file.path,
    constraint: 'new_executable',
    message: `${displayPath(file.path)} ${what}, and policy.allow_new_executables is false`,
    suggestion: `Remove the executable bit (chmod -x ${shellQuote(file.path)}), or set policy.allow_new_executables: true.`,
  }
}

function fileSizeFinding(file: ChangedFile, config: PolicyConfig): Finding | null {
  const max = config.max_file_size
  if (max === undefined || file.status === 'D' || file.newMode === MODE_GITLINK) return null
  if (file.size === null || file.size <= max) return null
  return {
    file: file.path,
    constraint: 'file_size',
    message: `${displayPath(file.path)} is ${formatSize(file.size)}, over policy.max_file_size (${formatSize(max)})`,
    suggestion: `Keep large generated or binary files out of the repository (add ${displayPath(file.path)} to .gitignore), or raise policy.max_file_size.`,
  }
}

/**
 * Diff size = the bytes of new content the diff writes: the full size of every added, modified,
 * type-changed or renamed file (deletions and submodules count 0). It is what the checkpoint has to
 * store and push, which is what the limit protects.
 */
export function diffSize(files: readonly ChangedFile[]): {
  bytes: number
  files: number
  added: number
  deleted: number
} {
  let bytes = 0
  let counted = 0
  let added = 0
  let deleted = 0
  for (const file of files) {
    added += file.linesAdded ?? 0
    deleted += file.linesDeleted ?? 0
    if (file.status === 'D' || file.newMode === MODE_GITLINK) continue
    bytes += file.size ?? 0
    counted++
  }
  return { bytes, files: counted, added, deleted }
}

function diffSizeFinding(
  files: ChangedFile[],
  config: PolicyConfig,
  scope: PolicyInput['scope'],
): Finding | null {
  const max = config.max_diff_size
  if (max === undefined) return null
  const size = diffSize(files)
  if (size.bytes <= max) return null
  const since = scope === 'checkpoint' ? 'since the previous checkpoint' : 'since the session started'
  return {
    file: WHOLE_DIFF,
    constraint: 'diff_size',
    message: `The changes ${since} write ${formatSize(size.bytes)} in ${size.files} files (+${size.added}/-${size.deleted} lines), over policy.max_diff_size (${formatSize(max)})`,
    suggestion: `Work in smaller steps, keep generated files out of the repository (.gitignore), or raise policy.max_diff_size.`,
  }
}

/** The literal directory a glob starts with ("src/**" → "src"), for suggestions. */
function baseDir(pattern: string): string {
  return picomatch.scan(pattern.replace(/^\.\//, '').replace(/^\/+/, '')).base.replace(/\/+$/, '')
}

function readLinkOrNull(path: string): string | null {
  try {
    return readlinkSync(path, 'utf8')
  } catch {
    return null
  }
}

/** `path` as one shell word, for the commands suggestions give. */
export function shellQuote(path: string): string {
  // bash's $'...' spells control characters as escapes, so the command stays one line.
  if (CONTROL_CHARS.test(path))
    return `$'${path.replace(/[\\']/g, (c) => `\\${c}`).replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}'`
  return /^[A-Za-z0-9_./-]+$/.test(path) && !path.startsWith('-') ? path : `'${path.replace(/'/g, `'\\''`)}'`
}

/**
 * A checkpoint's verdict: its own diff and the session's cumulative diff (some constraints, such as the
 * total diff size, only show in one of them), each (file, constraint) once. `withheld` are changes the
 * checkpoint left out (files in forbidden areas): they are judged in both scopes, since the worktree
 * still holds them.
 */
export function evaluateCheckpoint(input: CheckpointPolicyInput): Violation[] {
  return evaluateCheckpointScopes(input).all
}

export interface CheckpointPolicyInput {
  seq: number
  files: ChangedFile[]
  cumulative: ChangedFile[]
  withheld?: ChangedFile[]
  worktree: string
  policy: PolicyConfig
}

/**
 * `all`: every violation of the checkpoint (both scopes). `cumulative`: the ones the session's work
 * holds right now — what the policy gate asks the agent to fix.
 */
export function evaluateCheckpointScopes(input: CheckpointPolicyInput): {
  all: Violation[]
  cumulative: Violation[]
} {
  const { seq, worktree, policy } = input
  const withheld = input.withheld ?? []
  // Withheld (forbidden) files first: they lead the reasons the agent is sent back with.
  const cumulative = evaluatePolicy({
    files: [...withheld, ...input.cumulative],
    checkpoint: seq,
    worktree,
    policy,
    scope: 'cumulative',
  })
  const own = evaluatePolicy({
    files: [...withheld, ...input.files],
    checkpoint: seq,
    worktree,
    policy,
    scope: 'checkpoint',
  })
  return { all: dedupeViolations([...own, ...cumulative]), cumulative }
}

/**
 * The checkpoint store's `withhold` for a policy: the forbidden area a path is in (its content must
 * never be written into a checkpoint), or null.
 */
export function forbiddenAreaOf(policy: PolicyConfig): (path: string) => string | null {
  const compiled = compilePolicy(policy)
  if (compiled.forbidden.empty) return () => null
  return (path) => {
    const area = compiled.forbidden.match(path)
    return area === null ? null : `in a forbidden area (policy.forbidden_areas "${area}")`
  }
}
