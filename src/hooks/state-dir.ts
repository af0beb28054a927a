// proctor's own state lives in <repo>/.proctor/, which ignores itself so it never shows in `git status`
// and never enters a checkpoint.
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { findRepoRoot } from '../config/load.js'

export async function proctorStateDir(cwd: string, ...sub: string[]): Promise<string> {
  const root = join(findRepoRoot(cwd) ?? resolve(cwd), '.proctor')
  await mkdir(root, { recursive: true })
  const ignore = join(root, '.gitignore')
  if (!existsSync(ignore)) await writeFile(ignore, '*\n')
  const dir = join(root, ...sub)
  await mkdir(dir, { recursive: true })
  return dir
}
