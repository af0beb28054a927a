// Where the hooks keep their state (native adapters' rounds): a folder under proctor's own `.proctor/`,
// created the one way the session creates it (with its `.gitignore` of `*`).
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { ensureStateDir } from '../session/state-dir.js'

export async function proctorStateDir(cwd: string, ...sub: string[]): Promise<string> {
  const dir = join(ensureStateDir(cwd).state, ...sub)
  await mkdir(dir, { recursive: true })
  return dir
}
