// `proctor init`: a starter proctor.yml, the husky v9 pre-push hook and an example workflow. Existing files
// are kept unless `force` is set.
import { existsSync } from 'node:fs'
import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { findRepoRoot } from '../config/load.js'
import { EXAMPLE_WORKFLOW, PRE_PUSH_SCRIPT, STARTER_CONFIG } from './init-templates.js'

export interface InitFile {
  path: string
  content: string
  mode?: number
}

export const INIT_FILES: readonly InitFile[] = [
  { path: 'proctor.yml', content: STARTER_CONFIG },
  { path: '.husky/pre-push', content: PRE_PUSH_SCRIPT, mode: 0o755 },
  { path: '.github/workflows/proctor.yml', content: EXAMPLE_WORKFLOW },
]

export interface InitResult {
  root: string
  written: string[]
  kept: string[]
  /** Next steps worth telling the user (husky not installed...). */
  hints: string[]
}

export async function writeInitFiles(cwd: string, force: boolean): Promise<InitResult> {
  const root = findRepoRoot(cwd) ?? resolve(cwd)
  const result: InitResult = { root, written: [], kept: [], hints: [] }
  for (const file of INIT_FILES) {
    const path = join(root, file.path)
    if (existsSync(path) && !force) {
      result.kept.push(file.path)
      continue
    }
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, file.content)
    if (file.mode !== undefined) await chmod(path, file.mode)
    result.written.push(file.path)
  }
  if (!existsSync(join(root, '.husky', '_'))) {
    result.hints.push(
      'husky is not set up here: run `npx husky` once (and add "prepare": "husky" to package.json) so git runs .husky/pre-push',
    )
  }
  if (findRepoRoot(cwd) === null) result.hints.push('this is not a git repository; run `git init` first')
  return result
}
