import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { configSchema, type ConfigInput } from '../../src/config/schema.js'
import {
  checkPolicyConfig,
  evaluatePolicy,
  PolicyConfigError,
  WHOLE_DIFF,
  type ChangedFile,
  type PolicyInput,
} from '../../src/policy/index.js'

const worktree = mkdtempSync(join(tmpdir(), 'proctor-policy-'))
afterAll(() => rmSync(worktree, { recursive: true, force: true }))

function policy(input: NonNullable<ConfigInput['policy']>) {
  return configSchema.parse({ policy: input }).policy
}

function added(path: string, extra: Partial<ChangedFile> = {}): ChangedFile {
  return {
    path,
    status: 'A',
    oldMode: null,
    newMode: '100644',
    size: 10,
    linesAdded: 1,
    linesDeleted: 0,
    ...extra,
  }
}
function modified(path: string, extra: Partial<ChangedFile> = {}): ChangedFile {
  return {
    path,
    status: 'M',
    oldMode: '100644',
    newMode: '100644',
    size: 10,
    linesAdded: 1,
    linesDeleted: 1,
    ...extra,
  }
}
function deleted(path: string): ChangedFile {
  return { path, status: 'D', oldMode: '100644', newMode: null, size: null, linesAdded: 0, linesDeleted: 3 }
}
function renamed(oldPath: string, path: string): ChangedFile {
  return {
    path,
    oldPath,
    status: 'R',
    oldMode: '100644',
    newMode: '100644',
    size: 10,
    linesAdded: 0,
    linesDeleted: 0,
  }
}

function run(files: ChangedFile[], p: PolicyInput['policy'], extra: Partial<PolicyInput> = {}) {
  return evaluatePolicy({ files, checkpoint: 3, worktree, policy: p, scope: 'checkpoint', ...extra })
}
function flagged(files: ChangedFile[], p: PolicyInput['policy']) {
  return run(files, p).map((v) => `${v.constraint}:${v.file}`)
}

describe('forbidden_areas', () => {
  const p = policy({ forbidden_areas: ['secrets/**', '**/*.pem', '.env*', 'infra'] })

  it('flags adds, edits and deletions in forbidden areas, including dotfiles and nested dirs', () => {
    expect(
      flagged(
        [
          added('secrets/prod/.token'),
          modified('deploy/keys/server.pem'),
          deleted('.env.local'),
          added('infra/terraform/main.tf'),
          modified('src/index.ts'),
          added('src/secrets/readme.md'),
        ],
        p,
      ),
    ).toEqual([
      'forbidden_area:secrets/prod/.token',
      'forbidden_area:deploy/keys/server.pem',
      'forbidden_area:.env.local',
      'forbidden_area:infra/terraform/main.tf',
    ])
  })

  it('says which pattern matched, what happened, and how to fix it', () => {
    const [v] = run([deleted('.env.local')], p)
    expect(v).toMatchObject({
      checkpoint: 3,
      file: '.env.local',
      constraint: 'forbidden_area',
      severity: 'warning',
    })
    expect(v!.message).toContain('deleted')
    expect(v!.message).toContain('".env*"')
    expect(v!.suggestion).toContain('policy.forbidden_areas')
  })

  it('treats "dir", "dir/", "./dir/**" and "dir//**" as the same area, anchored at the repository root', () => {
    for (const pattern of ['docs', 'docs/', './docs/**', 'docs//**', './docs/./']) {
      expect(
        flagged(
          [added('docs/a/b.md'), added('docs'), added('src/docs/x.md'), added('docsx')],
          policy({ forbidden_areas: [pattern] }),
        ),
      ).toEqual(['forbidden_area:docs/a/b.md', 'forbidden_area:docs'])
    }
  })

  it('lets a glob that matches a directory cover what is inside it', () => {
    expect(
      flagged(
        [added('packages/a/src/x.ts'), added('packages.json')],
        policy({ forbidden_areas: ['packages/*'] }),
      ),
    ).toEqual(['forbidden_area:packages/a/src/x.ts'])
  })

  it('lets "!" patterns carve exceptions out of an area', () => {
    const p2 = policy({ forbidden_areas: ['config/**', '!config/local/**'] })
    expect(flagged([modified('config/prod.yml'), modified('config/local/dev.yml')], p2)).toEqual([
      'forbidden_area:config/prod.yml',
    ])
  })

  it('checks both sides of a rename', () => {
    expect(flagged([renamed('secrets/key', 'src/key'), renamed('src/a', 'secrets/a')], p)).toEqual([
      'forbidden_area:secrets/key',
      'forbidden_area:secrets/a',
    ])
  })
})

describe('protected_areas', () => {
  const p = policy({ protected_areas: ['.github/**', 'test/**/*.test.ts'] })

  it('flags modifying, deleting, mode changes, renaming and adding files', () => {
    expect(
      flagged(
        [
          modified('.github/workflows/ci.yml'),
          deleted('test/unit/a.test.ts'),
          { ...modified('test/b.test.ts'), status: 'T', newMode: '120000', symlinkTarget: 'c.test.ts' },
          renamed('test/unit/old.test.ts', 'test/unit/new.test.ts'),
          added('test/unit/brand-new.test.ts'),
          added('.github/dependabot.yml'),
          modified('src/a.ts'),
        ],
        p,
      ),
    ).toEqual([
      'protected_area:.github/workflows/ci.yml',
      'protected_area:test/unit/a.test.ts',
      'protected_area:test/b.test.ts',
      'protected_area:test/unit/new.test.ts',
      'protected_area:test/unit/old.test.ts',
      'protected_area:test/unit/brand-new.test.ts',
      'protected_area:.github/dependabot.yml',
    ])
  })

  it('a new workflow under a protected .github/workflows/ is flagged, with how to remove it', () => {
    const [v] = run([added('.github/workflows/exfiltrate.yml')], p)
    expect(v).toMatchObject({ constraint: 'protected_area', file: '.github/workflows/exfiltrate.yml' })
    expect(v!.message).toContain('was added')
    expect(v!.suggestion).toContain('rm .github/workflows/exfiltrate.yml')
  })

  it('suggests restoring the file and how to unprotect it', () => {
    const [v] = run([modified('.github/workflows/ci.yml')], p)
    expect(v!.message).toBe(
      '.github/workflows/ci.yml is protected (policy.protected_areas ".github/**") and was modified',
    )
    expect(v!.suggestion).toContain('git checkout HEAD -- .github/workflows/ci.yml')
    expect(v!.suggestion).toContain('"!.github/workflows/ci.yml"')
  })
})

describe('allowed_areas', () => {
  it('flags changes outside the allowed areas and names where to move them', () => {
    const p = policy({ allowed_areas: ['src/**', 'docs/', '*.md'] })
    const vs = run(
      [
        modified('src/a/b.ts'),
        added('docs/x/y.md'),
        modified('README.md'),
        added('scripts/x.sh'),
        deleted('sub/README.md'),
      ],
      p,
    )
    expect(vs.map((v) => `${v.constraint}:${v.file}`)).toEqual([
      'outside_allowed:scripts/x.sh',
      'outside_allowed:sub/README.md',
    ])
    expect(vs[0]!.suggestion).toBe('Move the change under src/ or add the path to policy.allowed_areas.')
    expect(vs[0]!.message).toContain('"src/**", "docs/", "*.md"')
  })

  it('applies to both paths of a rename and to nothing when the list is empty', () => {
    const p = policy({ allowed_areas: ['src/**'] })
    expect(flagged([renamed('lib/a.ts', 'src/a.ts')], p)).toEqual(['outside_allowed:lib/a.ts'])
    expect(flagged([added('anything/at/all'), added('.hidden')], policy({}))).toEqual([])
  })

  it('matches dotfiles and dot-directories with **', () => {
    expect(
      flagged([added('src/.eslintrc'), added('src/.cache/x')], policy({ allowed_areas: ['src/**'] })),
    ).toEqual([])
  })
})

describe('new executables', () => {
  const strict = policy({ allow_new_executables: false })

  it('flags files added as 100755 and files changed to 100755, not files that already were executable', () => {
    expect(
      flagged(
        [
          added('run.sh', { newMode: '100755' }),
          modified('build.sh', { oldMode: '100644', newMode: '100755' }),
          modified('already.sh', { oldMode: '100755', newMode: '100755' }),
          { ...renamed('a.sh', 'b.sh'), oldMode: '100755', newMode: '100755' },
          added('plain.txt'),
        ],
        strict,
      ),
    ).toEqual(['new_executable:run.sh', 'new_executable:build.sh'])
  })

  it('says what changed and how to undo it', () => {
    const [v] = run([modified('build.sh', { oldMode: '100644', newMode: '100755' })], strict)
    expect(v!.message).toContain('100644 → 100755')
    expect(v!.suggestion).toContain('chmod -x build.sh')
  })

  it('is allowed by default', () => {
    expect(flagged([added('run.sh', { newMode: '100755' })], policy({}))).toEqual([])
  })
})

describe('sizes', () => {
  it('flags files over max_file_size, ignoring deletions and submodules', () => {
    const p = policy({ max_file_size: '1KiB' })
    const vs = run(
      [
        added('big.bin', { size: 2048, linesAdded: null, linesDeleted: null }),
        added('edge.txt', { size: 1024 }),
        deleted('huge.iso'),
        added('vendor/lib', { newMode: '160000', size: 99_999 }),
      ],
      p,
    )
    expect(vs.map((v) => v.file)).toEqual(['big.bin'])
    expect(vs[0]!.message).toBe('big.bin is 2.0 KiB, over policy.max_file_size (1.0 KiB)')
  })

  it('flags a diff writing more than max_diff_size bytes as one violation about the whole diff', () => {
    const p = policy({ max_diff_size: '10KiB' })
    const files = [
      added('a', { size: 6000, linesAdded: 100 }),
      modified('b', { size: 6000, linesAdded: 5, linesDeleted: 7 }),
      deleted('c'),
    ]
    const vs = run(files, p, { scope: 'cumulative' })
    expect(vs).toHaveLength(1)
    expect(vs[0]).toMatchObject({ file: WHOLE_DIFF, constraint: 'diff_size' })
    expect(vs[0]!.message).toContain('since the session started')
    expect(vs[0]!.message).toContain('11.7 KiB in 2 files (+105/-10 lines)')
    expect(run(files.slice(0, 1), p)).toEqual([])
  })
})

describe('severities', () => {
  it('uses violation_severity by default and policy.severities per constraint', () => {
    const p = policy({
      forbidden_areas: ['secrets/**'],
      protected_areas: ['secrets/**'],
      violation_severity: 'error',
      severities: { protected_area: 'critical' },
    })
    expect(run([modified('secrets/a')], p).map((v) => `${v.constraint}=${v.severity}`)).toEqual([
      'forbidden_area=error',
      'protected_area=critical',
    ])
  })

  it('rejects an unknown constraint in policy.severities with a suggestion', () => {
    const p = policy({ severities: { forbiden_area: 'error' } })
    expect(() => run([], p)).toThrow(PolicyConfigError)
    expect(() => run([], p)).toThrow(
      'policy.severities.forbiden_area: unknown constraint (did you mean "forbidden_area"?)',
    )
  })
})

describe('deduplication', () => {
  it('reports a file once per constraint even when the diff lists it twice', () => {
    const p = policy({ forbidden_areas: ['x/**', 'x/a'] })
    expect(flagged([modified('x/a'), modified('x/a')], p)).toEqual(['forbidden_area:x/a'])
  })
})

describe('checkPolicyConfig', () => {
  it('names the bad pattern and how to fix it', () => {
    expect(checkPolicyConfig(policy({ forbidden_areas: ['ok/**', '../up'] })).errors).toEqual([
      'policy.forbidden_areas[1]: "../up" contains ".."; patterns are relative to the repository root and cannot leave it',
    ])
    expect(checkPolicyConfig(policy({ allowed_areas: [''] })).errors[0]).toContain(
      'use "**" to mean every file',
    )
    expect(checkPolicyConfig(policy({ protected_areas: ['!a'] })).errors[0]).toContain('only exceptions')
  })

  it('warns when revert_on_violation can never revert anything', () => {
    expect(checkPolicyConfig(policy({ revert_on_violation: true })).warnings[0]).toContain(
      'nothing will be reverted',
    )
    expect(
      checkPolicyConfig(policy({ revert_on_violation: true, severities: { forbidden_area: 'critical' } }))
        .warnings,
    ).toEqual([])
  })
})

describe('paths with control characters', () => {
  it('are matched against every area, and a newline or tab in a name is an error (unsafe_path)', () => {
    const p = policy({
      forbidden_areas: ['secrets/**', '**/*.pem'],
      protected_areas: ['.github/**'],
      allowed_areas: ['src/**'],
    })
    const vs = run(
      [
        added('secrets/a\nb'),
        added('keys/x\ty.pem'),
        added('.github/workflows/\nci.yml'),
        added('src/ok.ts'),
      ],
      p,
    )
    expect(vs.map((v) => `${v.constraint}:${JSON.stringify(v.file)}:${v.severity}`)).toEqual([
      'unsafe_path:"secrets/a\\nb":error',
      'forbidden_area:"secrets/a\\nb":warning',
      'outside_allowed:"secrets/a\\nb":warning',
      'unsafe_path:"keys/x\\ty.pem":error',
      'forbidden_area:"keys/x\\ty.pem":warning',
      'outside_allowed:"keys/x\\ty.pem":warning',
      'unsafe_path:".github/workflows/\\nci.yml":error',
      'protected_area:".github/workflows/\\nci.yml":warning',
      'outside_allowed:".github/workflows/\\nci.yml":warning',
    ])
    // Messages print the name quoted, so a newline in it cannot forge a line of the log.
    for (const v of vs) expect(v.message).not.toMatch(/[\n\t]/)
  })
})
