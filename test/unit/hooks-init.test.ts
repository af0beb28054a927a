import { mkdtempSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseConfigText } from '../../src/config/parse.js'
import { PRE_PUSH_SCRIPT } from '../../src/hooks/init-templates.js'
import { writeInitFiles } from '../../src/hooks/init.js'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'proctor-init-'))
  dirs.push(dir)
  mkdirSync(join(dir, '.git'))
  mkdirSync(join(dir, 'sub'))
  return dir
}

describe('proctor init', () => {
  it('writes a valid proctor.yml, an executable husky pre-push hook and a workflow at the repository root', async () => {
    const root = repo()
    const result = await writeInitFiles(join(root, 'sub'), false)
    expect(result.written).toEqual(['proctor.yml', '.husky/pre-push', '.github/workflows/proctor.yml'])
    const { config } = parseConfigText(readFileSync(join(root, 'proctor.yml'), 'utf8'), 'proctor.yml')
    expect(config.stop_hooks.map((hook) => hook.name)).toEqual(['tests'])
    expect(statSync(join(root, '.husky/pre-push')).mode & 0o111).not.toBe(0)
    expect(readFileSync(join(root, '.husky/pre-push'), 'utf8')).toContain('check --pre-push "$@"')
    expect(result.hints.join('\n')).toMatch(/npx husky/)
  })

  it('never overwrites an existing file without --force', async () => {
    const root = repo()
    writeFileSync(join(root, 'proctor.yml'), 'max_stop_rounds: 5\n')
    const kept = await writeInitFiles(root, false)
    expect(kept.kept).toEqual(['proctor.yml'])
    expect(readFileSync(join(root, 'proctor.yml'), 'utf8')).toBe('max_stop_rounds: 5\n')
    const forced = await writeInitFiles(root, true)
    expect(forced.written).toContain('proctor.yml')
    expect(readFileSync(join(root, 'proctor.yml'), 'utf8')).toContain('stop_hooks:')
  })

  it('ships the same script as the repository’s hooks/pre-push', () => {
    expect(readFileSync(new URL('../../hooks/pre-push', import.meta.url), 'utf8')).toBe(PRE_PUSH_SCRIPT)
  })
})
