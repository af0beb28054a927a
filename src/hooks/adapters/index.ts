// The native adapters by name, the hook command they install, and installing/restoring their settings files.
import { lstatSync } from 'node:fs'
import { mkdir, rm, rmdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describeKind, readRegularFile, writeFileAtomic } from '../../util/safe-file.js'
import { claudeAdapter } from './claude.js'
import { codexAdapter } from './codex.js'
import { geminiAdapter } from './gemini.js'
import { copilotAdapter } from './copilot.js'
import type { NativeAdapter, NativeAdapterName, NativeHookSetup } from './types.js'

export type {
  NativeAdapter,
  NativeAdapterName,
  NativeHookSetup,
  NativeAnswer,
  NativeStopInput,
} from './types.js'

export const nativeAdapters: Record<NativeAdapterName, NativeAdapter> = {
  claude: claudeAdapter,
  codex: codexAdapter,
  gemini: geminiAdapter,
  copilot: copilotAdapter,
}

export function isNativeAdapterName(name: string): name is NativeAdapterName {
  return Object.hasOwn(nativeAdapters, name)
}

/** The running proctor session a Stop hook reports to (its id and the socket it listens on). */
export interface NativeHookTarget {
  session: string
  socket: string
}

/**
 * The shell command an agent runs for its Stop hook. `proctor` is how to start proctor (e.g. ["proctor"], or
 * [node, /path/cli.js]); every element is single-quoted so paths with spaces or quotes survive the agent's shell.
 * Under `proctor run` the session is named in argv, not the environment: Gemini CLI strips a hook's
 * environment down to PATH, HOME and GEMINI_CLI_* whenever GITHUB_SHA is set (every Actions job).
 */
export function nativeHookCommand(
  proctor: readonly string[],
  adapter: NativeAdapterName,
  configFile?: string,
  target?: NativeHookTarget,
): string {
  const argv = [...proctor, 'hook', 'stop', '--adapter', adapter]
  if (configFile) argv.push('--config', configFile)
  if (target) argv.push('--session', target.session, '--socket', target.socket)
  return argv.map(shellQuote).join(' ')
}

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}

export interface InstalledNativeHooks {
  /** The files proctor wrote, relative to `cwd`. */
  paths: string[]
  /**
   * Puts every touched file back byte for byte (deletes files proctor created); returns the files the agent
   * changed after proctor wrote them (their changes are gone: the file is proctor's, not the agent's work).
   */
  restore(): Promise<string[]>
}

/** Merges the adapter's hook into its settings files under `cwd`; keep the handle and restore() in finally. */
export async function installNativeHooks(setup: NativeHookSetup, cwd: string): Promise<InstalledNativeHooks> {
  const originals: {
    file: string
    path: string
    content: Buffer | null
    written: string
    createdDir: string | undefined
  }[] = []
  for (const file of setup.files) {
    const path = join(cwd, file.path)
    // Bytes, not text: a user's file with a BOM or invalid UTF-8 is put back exactly as it was.
    const content = readSettingsFile(path, file.path)
    let existing: unknown = null
    if (content !== null && content.toString('utf8').trim() !== '') {
      try {
        existing = JSON.parse(content.toString('utf8').replace(/^\uFEFF/, ''))
      } catch (error) {
        throw new Error(
          `${file.path} is not valid JSON (${(error as Error).message}); fix it so proctor can add its Stop hook`,
          { cause: error },
        )
      }
    }
    const createdDir = await mkdir(dirname(path), { recursive: true })
    const written = `${JSON.stringify(file.merge(existing), null, 2)}\n`
    originals.push({ file: file.path, path, content, written, createdDir })
    // Through a fresh file renamed over the target: a symlink planted there is replaced, never followed.
    writeFileAtomic(path, written)
  }
  return {
    paths: originals.map((original) => original.file),
    async restore() {
      const changed: string[] = []
      for (const original of [...originals].reverse()) {
        let now: string | null = null
        try {
          now = readSettingsFile(original.path, original.file)?.toString('utf8') ?? null
        } catch {
          // The agent put something else there (a FIFO, a symlink): changed, and replaced below.
        }
        if (now !== original.written) changed.push(original.file)
        if (original.content === null) await rm(original.path, { force: true })
        else writeFileAtomic(original.path, original.content)
        // Only empty directories proctor created go (from the file's up to the first one it made); anything
        // the agent put there stays.
        if (original.createdDir) await removeEmptyDirs(dirname(original.path), original.createdDir)
      }
      return changed.reverse()
    },
  }
}

/** rmdir `dir`, then its parents up to and including `top`, stopping at the first that is not empty. */
async function removeEmptyDirs(dir: string, top: string): Promise<void> {
  for (let current = dir; ; current = dirname(current)) {
    if (current !== top && !current.startsWith(`${top}/`)) return
    const removed = await rmdir(current).then(
      () => true,
      () => false,
    )
    if (!removed || current === top || current === dirname(current)) return
  }
}

/** A settings file proctor merges into may hold a user's hooks, not megabytes. */
const MAX_SETTINGS_BYTES = 1024 * 1024

/**
 * The bytes of a settings file, or null when there is none. The agent can write where these files are, so
 * what is there is read only if it is a regular file: a FIFO would block the read, a symlink would have
 * proctor read (and put in an error message) some other file.
 */
function readSettingsFile(path: string, name: string): Buffer | null {
  let stats
  try {
    stats = lstatSync(path)
  } catch {
    return null
  }
  if (!stats.isFile()) {
    throw new Error(
      `${name} is ${describeKind(stats)}, not a regular file; remove it so proctor can add its Stop hook`,
    )
  }
  return readRegularFile(path, MAX_SETTINGS_BYTES)
}
