// Whether an agent CLI can still resume one of its own sessions on this machine: each CLI keeps its
// conversations as files under its home, and a CI job on a fresh machine has none of them. Asked before a
// continuation passes `{agent_session}` (src/session/resume.ts): resuming an id the CLI does not have fails
// the round (Claude: "No conversation found", Codex: no thread, Gemini: "Invalid session identifier"),
// where a fresh agent told about the earlier rounds can go on. Where each CLI keeps them (checked against the
// pinned releases by test/e2e/agents-resume.test.ts):
// - Claude Code: `$CLAUDE_CONFIG_DIR` (default `~/.claude`) `/projects/<project>/<id>.jsonl`
// - Codex: `$CODEX_HOME` (default `~/.codex`) `/sessions/<yyyy>/<mm>/<dd>/rollout-<time>-<id>.jsonl`
// - Gemini CLI: `$GEMINI_CLI_HOME` (default `~`) `/.gemini/tmp/<project>/chats/session-<time>-<id[0,8]>.json[l]`,
//   the full id inside
// - Copilot CLI: `$COPILOT_HOME` (default `~/.copilot`) `/session-state/<id>/` (events.jsonl inside)
import { closeSync, constants, openSync, readSync, readdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { AgentAdapterName } from '../hooks/continue.js'

type Env = Record<string, string | undefined>

/**
 * An id as the CLIs make them (UUIDs, thread ids): nothing that could walk out of a directory or pass for
 * an option when it follows `--resume` on a command line. The id comes from the agent's side.
 */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{7,127}$/

export function isAgentSessionId(id: string): boolean {
  return SAFE_ID.test(id)
}

/**
 * Whether the CLI behind `adapter` keeps session `id` where it would look for it, for the user in `env`.
 * null: proctor cannot tell (a generic agent): a continuation then trusts the id.
 */
export function agentSessionStored(adapter: AgentAdapterName, id: string, env: Env): boolean | null {
  if (adapter === 'generic') return null
  if (!SAFE_ID.test(id)) return false
  const home = env.HOME || homedir()
  switch (adapter) {
    case 'claude': {
      const projects = join(env.CLAUDE_CONFIG_DIR || join(home, '.claude'), 'projects')
      return dirs(projects).some((project) => names(join(projects, project)).includes(`${id}.jsonl`))
    }
    case 'codex': {
      const sessions = join(env.CODEX_HOME || join(home, '.codex'), 'sessions')
      const suffix = `-${id}.jsonl`
      return walk(sessions, 3).some((name) => name.endsWith(suffix))
    }
    case 'gemini': {
      const tmp = join(env.GEMINI_CLI_HOME || home, '.gemini', 'tmp')
      const short = id.slice(0, 8)
      return dirs(tmp).some((project) => {
        const chats = join(tmp, project, 'chats')
        return names(chats)
          .filter((name) => name.startsWith('session-') && /\.jsonl?$/.test(name))
          .filter((name) => name.replace(/\.jsonl?$/, '').endsWith(`-${short}`))
          .some((name) => head(join(chats, name)).includes(`"${id}"`))
      })
    }
    case 'copilot':
      return dirs(join(env.COPILOT_HOME || join(home, '.copilot'), 'session-state')).includes(id)
  }
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

function dirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  } catch {
    return []
  }
}

/** File names `depth` directory levels below `dir` (Codex's year/month/day). */
function walk(dir: string, depth: number): string[] {
  if (depth === 0) return names(dir)
  return dirs(dir).flatMap((sub) => walk(join(dir, sub), depth - 1))
}

/**
 * The first 8 KiB of a file (the session's id is in its first record); never blocks on a FIFO. Not
 * readRegularFile: a long conversation is over any cap, and only its head is needed.
 */
function head(path: string): string {
  let fd: number | null = null
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
    const buffer = Buffer.alloc(8192)
    const read = readSync(fd, buffer, 0, buffer.length, 0)
    return buffer.subarray(0, read).toString('utf8')
  } catch {
    return ''
  } finally {
    if (fd !== null) closeSync(fd)
  }
}
