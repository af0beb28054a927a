// Shared pieces of the batch tests: a committed temp repo, a config with fast children, hook logs that
// record every lifecycle firing, and a deadline poll for things that have no event.
import fs from 'node:fs'
import path from 'node:path'
import { configSchema, type Config, type ConfigInput } from '../../src/config/schema.js'
import { makeTempRepo, type TempRepo } from '../helpers/git-repo.js'

export interface BatchRepo extends TempRepo {
  stopLog: string
  completeLog: string
}

export function batchRepo(): BatchRepo {
  const repo = makeTempRepo({ files: { 'README.md': 'hello\n', 'src/a.ts': 'export const a = 1\n' } })
  const logs = fs.mkdtempSync(path.join(path.dirname(repo.dir), 'proctor-batch-logs-'))
  const cleanup = repo.cleanup
  return Object.assign(repo, {
    stopLog: path.join(logs, 'subagent_stop.jsonl'),
    completeLog: path.join(logs, 'subagent_batch_complete.jsonl'),
    cleanup: () => {
      cleanup()
      fs.rmSync(logs, { recursive: true, force: true })
    },
  })
}

/** Pipe mode, no checkpoints unless asked, a short grace, and hooks that append their stdin to the logs. */
export function fastConfig(repo: BatchRepo, extra: ConfigInput = {}): Config {
  return configSchema.parse({
    agent: { pty: false },
    timeouts: { grace: '300ms' },
    checkpoints: { enabled: false, push: 'never' },
    hooks: {
      subagent_stop: [{ name: 'record-stop', command: `cat >> '${repo.stopLog}'` }],
      subagent_batch_complete: [{ name: 'record-complete', command: `cat >> '${repo.completeLog}'` }],
    },
    ...extra,
  })
}

export interface HookLine {
  hook_event_name: string
  session_id: string
  extra: Record<string, unknown> & { children?: Record<string, unknown>[] }
}

export function hookLines(file: string): HookLine[] {
  if (!fs.existsSync(file)) return []
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as HookLine)
}

export async function waitUntil(check: () => boolean, what: string, deadlineMs = 30_000): Promise<void> {
  const end = Date.now() + deadlineMs
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** Worktrees git still knows about, other than the repository's own. */
export function extraWorktrees(repo: TempRepo): string[] {
  return repo
    .git(['worktree', 'list', '--porcelain'])
    .split('\n')
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice('worktree '.length))
    .filter((dir) => dir !== repo.dir)
}
