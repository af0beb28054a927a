// Reading checkpoints back: sessions under refs/proctor/*, each session's chain (walking the ref and
// parsing trailers), and resolving the ids users type: `<session>@<seq>`, `<session>`, a sha, `latest`.
import type { Git } from '../git/runner.js'
import { splitNul } from '../git/nul.js'
import { parseCheckpointMessage } from './message.js'
import { CHECKPOINT_REF_PREFIX } from './refs.js'

export interface CheckpointInfo {
  session: string
  seq: number
  sha: string
  tree: string
  parent: string | null
  base: string | null
  trigger: string
  violations: number
  skippedCount: number
  skipped: string[]
  subject: string
  createdAt: string
}

export interface SessionInfo {
  session: string
  ref: string
  tip: string
}

/** Every session with checkpoints in this repository, newest tip first. */
export async function listSessions(git: Git): Promise<SessionInfo[]> {
  const out = (
    await git.raw([
      'for-each-ref',
      '--sort=-committerdate',
      '--format=%(objectname) %(refname)',
      '--',
      CHECKPOINT_REF_PREFIX,
    ])
  ).stdout
  return out
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const sha = line.slice(0, line.indexOf(' '))
      const ref = line.slice(line.indexOf(' ') + 1)
      return { session: ref.slice(CHECKPOINT_REF_PREFIX.length), ref, tip: sha }
    })
}

/** The checkpoints of one session, oldest first (walks first parents while they belong to the session). */
export async function listCheckpoints(git: Git, session: string): Promise<CheckpointInfo[]> {
  const tip = await git.revParse(`${CHECKPOINT_REF_PREFIX}${session}^{commit}`)
  if (!tip) return []
  const out = (await git.raw(['log', '-z', '--first-parent', '--format=%H%n%T%n%P%n%cI%n%B', tip])).stdout
  const checkpoints: CheckpointInfo[] = []
  for (const record of splitNul(out)) {
    const info = parseLogRecord(record)
    if (!info || info.session !== session) break
    checkpoints.push(info)
  }
  return checkpoints.reverse()
}

/** One commit as a checkpoint, or null when it is not one (no Proctor-Session trailer). */
export async function readCheckpoint(git: Git, sha: string): Promise<CheckpointInfo | null> {
  const out = (await git.raw(['log', '-1', '--format=%H%n%T%n%P%n%cI%n%B', sha])).stdout
  return parseLogRecord(out)
}

function parseLogRecord(record: string): CheckpointInfo | null {
  const [sha, tree, parents, date, ...body] = record.replace(/^\n/, '').split('\n')
  const parsed = parseCheckpointMessage(body.join('\n'))
  if (!sha || !tree || parsed.session === null || parsed.seq === null) return null
  return {
    session: parsed.session,
    seq: parsed.seq,
    sha,
    tree,
    parent: parents ? (parents.split(' ')[0] ?? null) : null,
    base: parsed.base,
    trigger: parsed.trigger ?? 'unknown',
    violations: parsed.violations,
    skippedCount: parsed.skippedCount,
    skipped: parsed.skipped,
    subject: parsed.subject,
    createdAt: date ?? '',
  }
}

/**
 * Resolve what a user typed: `latest` (newest checkpoint of any session), `<session>@<seq>`,
 * `<session>@latest`, `@<seq>` (of the newest session), `<session>`, or a (short) commit id. Errors say
 * what exists instead.
 */
export async function resolveCheckpoint(git: Git, id: string): Promise<CheckpointInfo> {
  const sessions = await listSessions(git)
  if (id === 'latest') {
    const newest = sessions[0]
    if (!newest) throw new Error('there are no checkpoints in this repository yet (no refs/proctor/* refs)')
    return mustRead(git, newest.tip, id)
  }
  const at = id.lastIndexOf('@')
  // `@<seq>` alone, as `checkpoints list` prints it under each session: the newest session's.
  if (at === 0 && sessions.length === 0)
    throw new Error('there are no checkpoints in this repository yet (no refs/proctor/* refs)')
  if (at >= 0) {
    const session = at === 0 ? sessions[0]!.session : id.slice(0, at)
    const which = id.slice(at + 1)
    const chain = await listCheckpoints(git, session)
    if (chain.length === 0) throw new Error(`no session "${session}"; ${sessionHint(sessions)}`)
    if (which === 'latest') return chain[chain.length - 1]!
    const found = /^\d+$/.test(which) ? chain.find((c) => c.seq === Number(which)) : undefined
    if (!found) {
      throw new Error(
        `session "${session}" has no checkpoint ${which}; it has 1..${chain[chain.length - 1]!.seq}`,
      )
    }
    return found
  }
  const session = sessions.find((s) => s.session === id)
  if (session) return mustRead(git, session.tip, id)
  const sha = /^[0-9a-f]{4,64}$/i.test(id) ? await git.revParse(`${id}^{commit}`) : null
  if (!sha) {
    throw new Error(
      `"${id}" is not a checkpoint: use <session>@<seq>, @<seq>, <session>, a commit id, or latest; ${sessionHint(sessions)}`,
    )
  }
  return mustRead(git, sha, id)
}

async function mustRead(git: Git, sha: string, id: string): Promise<CheckpointInfo> {
  const info = await readCheckpoint(git, sha)
  if (!info) throw new Error(`${id} (${sha.slice(0, 12)}) is a commit but not a proctor checkpoint`)
  return info
}

function sessionHint(sessions: readonly SessionInfo[]): string {
  if (sessions.length === 0) return 'there are no sessions yet'
  const names = sessions.slice(0, 5).map((s) => s.session)
  return `sessions: ${names.join(', ')}${sessions.length > 5 ? ', ...' : ''} (see proctor checkpoints list)`
}
