// The content scan of a checkpoint: every file it would record is read (as proctor reads agent-writable
// files: non-blocking, regular files only, capped) and judged by three things — secretlint's rules
// (rules.ts), the values proctor knows (known.ts), and the bytes of the files in forbidden areas, so a
// copy or a hard link of one is recognised wherever it reappears. A file with a finding is withheld from
// the checkpoint like a forbidden one (checkpoints/store.ts), and its finding becomes a `secret_content`
// violation (finding.ts). The values found are kept only in memory, for the redaction of logs and uploads.
import fs from 'node:fs'
import { readRegularFile } from '../../util/safe-file.js'
import { KnownValues, knownSecrets } from './known.js'
import { findByRules } from './rules.js'
import type { ContentFinding, KnownSecret } from './types.js'

/** Read in full up to this much (checkpoints.max_file_size, 5 MiB by default, leaves larger files out anyway). */
const MAX_SCAN_BYTES = 64 * 1024 * 1024

/** A forbidden file's copy must be this long to count: an empty or one-line file matches too much. */
const MIN_COPY_BYTES = 16

export interface ScannerOptions {
  /** The values to recognise (default: knownSecrets() when the scanner is made). */
  known?: readonly KnownSecret[]
  /** Paths secretlint's rules are not run on (policy.secret_allowed_paths); known values and copies still count. */
  rulesSkip?: (path: string) => boolean
}

export class ContentScanner {
  private readonly known: KnownValues
  /** sha256 of each forbidden file's bytes → its path. */
  private readonly forbidden = new Map<string, string>()
  /** Per path: the stat it was last judged at and what was found, so an unchanged file is not read again. */
  private readonly judged = new Map<string, { key: string; finding: ContentFinding | null }>()
  private readonly forbiddenSeen = new Map<string, string>()
  private readonly rulesSkip: (path: string) => boolean

  constructor(options: ScannerOptions = {}) {
    this.known = new KnownValues(options.known ?? knownSecrets())
    this.rulesSkip = options.rulesSkip ?? (() => false)
  }

  /**
   * Remembers the bytes of a file in a forbidden area (the baseline's and any the agent writes later), so
   * the same bytes anywhere else are a finding. `file` is absolute.
   */
  forbid(file: string, relative: string, stat: fs.Stats): void {
    if (!stat.isFile() || stat.size < MIN_COPY_BYTES) return
    const key = statKey(stat)
    if (this.forbiddenSeen.get(relative) === key) return
    let bytes: Buffer
    try {
      bytes = readRegularFile(file, stat.size)
    } catch {
      return
    }
    this.forbiddenSeen.set(relative, key)
    this.forbidden.set(digest(bytes), relative)
  }

  /** What makes `relative` (the file at `file`, of this stat) unfit for a checkpoint, or null. */
  async scanFile(file: string, relative: string, stat: fs.Stats): Promise<ContentFinding | null> {
    const key = statKey(stat)
    const seen = this.judged.get(relative)
    if (seen?.key === key) return seen.finding
    let bytes: Buffer
    try {
      // Not capped at the size the listing saw: a file that grew since is read whole, as git will read it.
      bytes = readRegularFile(file, Math.max(stat.size, MAX_SCAN_BYTES))
    } catch {
      return null // gone or swapped since the listing: git reads it next, and the next checkpoint judges it
    }
    const finding = await this.scanBytes(relative, bytes)
    this.judged.set(relative, { key, finding })
    return finding
  }

  /** The finding in `bytes` (the content of `relative`), or null. */
  async scanBytes(relative: string, bytes: Buffer): Promise<ContentFinding | null> {
    if (this.forbidden.size > 0 && bytes.length >= MIN_COPY_BYTES) {
      const original = this.forbidden.get(digest(bytes))
      if (original !== undefined && original !== relative)
        return {
          rule: 'forbidden-copy',
          what: `a copy of ${original}, which is in a forbidden area`,
          line: null,
        }
    }
    const text = bytes.toString('utf8')
    return this.known.find(text) ?? (this.rulesSkip(relative) ? null : await findByRules(relative, text))
  }
}

function statKey(stat: fs.Stats): string {
  return `${stat.size}:${stat.ino}:${stat.mtimeMs}:${stat.ctimeMs}`
}

function digest(bytes: Buffer): string {
  // Loaded on first use: a session opens its store before the agent's spawn, and node:crypto costs it there.
  const { createHash } = process.getBuiltinModule('node:crypto')
  return createHash('sha256').update(bytes).digest('hex')
}
