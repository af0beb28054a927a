// The native adapters by name, the hook command they install, and installing/restoring their settings files.
import { mkdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { claudeAdapter } from './claude.js'
import { codexAdapter } from './codex.js'
import { geminiAdapter } from './gemini.js'
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
}

export function isNativeAdapterName(name: string): name is NativeAdapterName {
  return Object.hasOwn(nativeAdapters, name)
}

/**
 * The shell command an agent runs for its Stop hook. `proctor` is how to start proctor (e.g. ["proctor"], or
 * [node, /path/cli.js]); every element is single-quoted so paths with spaces or quotes survive the agent's shell.
 */
export function nativeHookCommand(
  proctor: readonly string[],
  adapter: NativeAdapterName,
  configFile?: string,
): string {
  const argv = [...proctor, 'hook', 'stop', '--adapter', adapter]
  if (configFile) argv.push('--config', configFile)
  return argv.map(shellQuote).join(' ')
}

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}

export interface InstalledNativeHooks {
  /** Puts every touched file back as it was (deletes files proctor created). */
  restore(): Promise<void>
}

/** Merges the adapter's hook into its settings files under `cwd`; keep the handle and restore() in finally. */
export async function installNativeHooks(setup: NativeHookSetup, cwd: string): Promise<InstalledNativeHooks> {
  const originals: { path: string; content: string | null; createdDir: string | undefined }[] = []
  for (const file of setup.files) {
    const path = join(cwd, file.path)
    const content = await readFile(path, 'utf8').catch(() => null)
    let existing: unknown = null
    if (content !== null && content.trim() !== '') {
      try {
        existing = JSON.parse(content)
      } catch (error) {
        throw new Error(
          `${file.path} is not valid JSON (${(error as Error).message}); fix it so proctor can add its Stop hook`,
          { cause: error },
        )
      }
    }
    const createdDir = await mkdir(dirname(path), { recursive: true })
    originals.push({ path, content, createdDir })
    await writeFile(path, `${JSON.stringify(file.merge(existing), null, 2)}\n`)
  }
  return {
    async restore() {
      for (const original of originals.reverse()) {
        if (original.content === null) await rm(original.path, { force: true })
        else await writeFile(original.path, original.content)
        // Only an empty directory proctor created goes; anything the agent put there stays.
        if (original.createdDir) await rmdir(original.createdDir).catch(() => undefined)
      }
    },
  }
}
