// The checkpoint commit message: a subject, an optional body listing skipped files, and git trailers
// (`git interpret-trailers --parse` reads them), so a checkpoint describes itself without proctor's state.

export interface SkippedFile {
  path: string
  /** unrecordable: git could not add it (e.g. a nested repository without commits). */
  reason: 'size' | 'lfs' | 'unrecordable' | 'forbidden' | 'secret'
  /** Bytes on disk when skipped for size. */
  size?: number
  /** Why, in words, for `forbidden` (which area) and `secret` (what was found, by which rule; never the value). */
  detail?: string
}

export interface CheckpointMessageFields {
  session: string
  seq: number
  base: string | null
  /**
   * The session's baseline (checkpoint 0: the worktree as the user left it) when it is not `base` itself:
   * a resumed session judges its agent against it, never against HEAD.
   */
  baseline?: string | null
  trigger: string
  filesChanged: number
  violations: number
  skipped: readonly SkippedFile[]
  maxFileSize: number
}

const MAX_LISTED_SKIPS = 50

export const TRAILER = {
  session: 'Proctor-Session',
  seq: 'Proctor-Seq',
  base: 'Proctor-Base',
  baseline: 'Proctor-Baseline',
  trigger: 'Proctor-Trigger',
  violations: 'Proctor-Violations',
  skipped: 'Proctor-Skipped',
} as const

/** A trigger name as a single safe trailer token. */
export function trailerToken(value: string): string {
  return value.replace(/[^A-Za-z0-9._:-]+/g, '-').slice(0, 80) || 'unknown'
}

export function formatCheckpointMessage(fields: CheckpointMessageFields): string {
  const trigger = trailerToken(fields.trigger)
  const noun = fields.filesChanged === 1 ? 'file' : 'files'
  const lines = [`proctor checkpoint ${fields.seq} (${trigger}): ${fields.filesChanged} ${noun}`, '']
  if (fields.skipped.length > 0) {
    // JSON quoting keeps paths with newlines or odd characters on one line of the body.
    for (const skip of fields.skipped.slice(0, MAX_LISTED_SKIPS)) {
      const why =
        skip.reason === 'lfs'
          ? 'LFS-tracked'
          : skip.reason === 'unrecordable'
            ? 'git could not record it (a nested repository without commits?)'
            : skip.reason === 'forbidden'
              ? `${skip.detail ?? 'in a forbidden area'}; its content stays out of checkpoints`
              : skip.reason === 'secret'
                ? `holds a secret (${skip.detail ?? 'content scan'}); its content stays out of checkpoints`
                : `over max_file_size (${skip.size ?? '?'} bytes)`
      lines.push(`Skipped ${JSON.stringify(skip.path)}: ${why}`)
    }
    if (fields.skipped.length > MAX_LISTED_SKIPS)
      lines.push(`... and ${fields.skipped.length - MAX_LISTED_SKIPS} more`)
    lines.push('')
  }
  lines.push(
    `${TRAILER.session}: ${fields.session}`,
    `${TRAILER.seq}: ${fields.seq}`,
    `${TRAILER.base}: ${fields.base ?? 'none'}`,
    ...(fields.baseline && fields.baseline !== fields.base
      ? [`${TRAILER.baseline}: ${fields.baseline}`]
      : []),
    `${TRAILER.trigger}: ${trigger}`,
    `${TRAILER.violations}: ${fields.violations}`,
    `${TRAILER.skipped}: ${fields.skipped.length}`,
  )
  return lines.join('\n') + '\n'
}

export interface ParsedCheckpointMessage {
  subject: string
  session: string | null
  seq: number | null
  base: string | null
  /** The session's baseline commit when it differs from `base` (Proctor-Baseline); null otherwise. */
  baseline: string | null
  trigger: string | null
  violations: number
  skippedCount: number
  skipped: string[]
}

/**
 * The baseline of the session checkpoint `sha` belongs to: itself when it is the baseline, else the one its
 * trailers name, else its base (the worktree was HEAD when the session started).
 */
export function baselineOf(sha: string, parsed: ParsedCheckpointMessage): string | null {
  return parsed.trigger === 'baseline' ? sha : (parsed.baseline ?? parsed.base)
}

/** Read a checkpoint message back; tolerant of missing trailers (returns nulls). */
export function parseCheckpointMessage(message: string): ParsedCheckpointMessage {
  const lines = message.replace(/\r\n/g, '\n').split('\n')
  const trailers = new Map<string, string>()
  const skipped: string[] = []
  for (const line of lines) {
    const trailer = /^(Proctor-[A-Za-z]+):\s*(.*)$/.exec(line)
    if (trailer) trailers.set(trailer[1]!, trailer[2]!.trim())
    const skip = /^Skipped ("(?:[^"\\]|\\.)*"):/.exec(line)
    if (skip) {
      try {
        skipped.push(JSON.parse(skip[1]!) as string)
      } catch {
        // A hand-edited message: keep going without that entry.
      }
    }
  }
  const number = (key: string): number | null => {
    const value = trailers.get(key)
    return value !== undefined && /^\d+$/.test(value) ? Number(value) : null
  }
  const base = trailers.get(TRAILER.base) ?? null
  return {
    subject: lines[0] ?? '',
    session: trailers.get(TRAILER.session) ?? null,
    seq: number(TRAILER.seq),
    base: base === 'none' ? null : base,
    baseline: trailers.get(TRAILER.baseline) ?? null,
    trigger: trailers.get(TRAILER.trigger) ?? null,
    violations: number(TRAILER.violations) ?? 0,
    skippedCount: number(TRAILER.skipped) ?? skipped.length,
    skipped,
  }
}
