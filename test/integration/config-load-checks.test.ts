// loadConfig loads the code behind a check (the detector, the policy compiler, the agent presets, the
// branch names) only when the file uses it (src/config/parse-core.ts). Whatever it loads, it must decide
// every file exactly as parseConfigText does with all of them: the same config and warnings, or the same
// errors with the same lines, columns and hints.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, parseConfigText } from '../../src/config/index.js'
import { defaultConfig } from '../../src/config/defaults.js'
import { neededChecks } from '../../src/config/parse-core.js'
import { checkPolicyConfig } from '../../src/policy/compile.js'
import { remoteBranchFor } from '../../src/checkpoints/refs.js'
import type { PresetChoice } from '../../src/agents/presets/apply.js'

let repo: string

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'proctor-config-checks-'))
  execFileSync('git', ['init', '-q', repo])
})
afterEach(() => {
  rmSync(repo, { recursive: true, force: true })
})

type Outcome = { config: unknown; warnings: string[] } | { errors: string }

async function viaLoad(text: string, preset?: PresetChoice): Promise<Outcome> {
  writeFileSync(join(repo, 'proctor.yml'), text)
  try {
    const { config, warnings } = await loadConfig({ cwd: repo, preset })
    return { config, warnings }
  } catch (error) {
    if (error instanceof ConfigError) return { errors: error.message }
    throw error
  }
}

function viaParse(text: string, preset?: PresetChoice): Outcome {
  try {
    const { config, warnings } = parseConfigText(text, 'proctor.yml', preset)
    return { config, warnings }
  } catch (error) {
    if (error instanceof ConfigError) return { errors: error.message }
    throw error
  }
}

const FILES: Record<string, string> = {
  'no checks': 'agent:\n  command: [claude, -p, "fix it"]\ncheckpoints:\n  max_file_size: 2MiB\n',
  'a bad detect pattern': "detect:\n  - name: a\n    match: '(unclosed'\n",
  'a catastrophic detect pattern': "detect:\n  - name: a\n    match: '(a+)+$'\n",
  'a rule the detector refuses':
    "detect:\n  - name: a\n    match: 'x'\n    respond: { send: y, stop: true }\n",
  'a bad pattern beside a schema error': "agent:\n  pty: maybe\ndetect:\n  - name: a\n    match: '(x'\n",
  'an empty detect list': 'detect: []\n',
  'a glob that leaves the repository': 'policy:\n  forbidden_areas: ["../outside"]\n',
  'an unknown severity key': 'policy:\n  severities: { forbiden_area: error }\n',
  'a policy warning': 'policy:\n  revert_on_violation: true\n',
  'an empty policy': 'policy: {}\n',
  'a bad branch template': 'checkpoints:\n  branch: "proctor/{session}..x"\n',
  'a good branch template': 'checkpoints:\n  branch: "agents/{session}"\n',
  'a bad policy.tests glob': 'policy:\n  tests:\n    python: ["tests/**", "/abs/**"]\n',
  'a bad gate_files glob': 'stop_hooks:\n  - { name: t, command: npm test, gate_files: ["/"] }\n',
  'good gate_files': 'stop_hooks:\n  - { name: t, command: npm test, gate_files: ["test/helpers/**"] }\n',
  'a preset in the file': 'agent:\n  preset: claude-code\n',
  'an unknown preset in the file': 'agent:\n  preset: claude\n',
  'a preset with a bad rule of the file': "agent:\n  preset: codex\ndetect:\n  - name: a\n    match: '(x'\n",
}

describe('loadConfig with only the checks a file needs', () => {
  for (const [name, text] of Object.entries(FILES)) {
    it(`decides a file with ${name} as parseConfigText does`, async () => {
      const loaded = await viaLoad(text)
      expect(loaded).toEqual(viaParse(text))
      if (name.startsWith('a bad') || name.includes('catastrophic') || name.includes('refuses')) {
        expect(loaded).toHaveProperty('errors', expect.stringMatching(/^proctor\.yml:\d+:\d+ /))
      }
    })
  }

  it('points a bad glob of policy.tests (tests_weakened) at its line, with the fix', async () => {
    const loaded = await viaLoad(FILES['a bad policy.tests glob']!)
    expect(loaded).toHaveProperty(
      'errors',
      expect.stringMatching(
        /^proctor\.yml:3:26 policy\.tests\.python\[1\]: "\/abs\/\*\*" is an absolute path; .*did you mean "abs\/\*\*"\?/,
      ),
    )
  })

  it('reports a bad rule of the file with the preset chosen on the command line', async () => {
    const text = "detect:\n  - name: a\n    match: '(x'\n"
    const loaded = await viaLoad(text, { preset: 'gemini' })
    expect(loaded).toEqual(viaParse(text, { preset: 'gemini' }))
    expect(loaded).toHaveProperty('errors', expect.stringMatching(/^proctor\.yml:3:12 detect\[0\]\.match: /))
  })

  it('applies a preset chosen on the command line without a file', async () => {
    const { config } = await loadConfig({ cwd: repo, preset: { preset: 'claude-code' } })
    expect(config).toEqual(parseConfigText('', 'defaults', { preset: 'claude-code' }).config)
    expect(config.detect.length).toBeGreaterThan(0)
  })

  it('skips only checks whose input is then the default, which passes them', () => {
    expect(neededChecks({ timeouts: { total: '1m' } })).toEqual({
      preset: false,
      detect: false,
      policy: false,
      branch: false,
      gateFiles: false,
    })
    expect(
      neededChecks({
        detect: [{}],
        policy: {},
        checkpoints: { branch: 'x' },
        stop_hooks: [{ name: 'a' }, { name: 'b', gate_files: [] }],
      }),
    ).toEqual({
      preset: false,
      detect: true,
      policy: true,
      branch: true,
      gateFiles: true,
    })
    expect(neededChecks({ stop_hooks: [{ name: 'a', command: 'x' }] }).gateFiles).toBe(false)
    expect(Object.values(neededChecks({}, { preset: 'codex' }))).toEqual([true, true, true, true, true])
    const defaults = defaultConfig()
    expect(defaults.detect).toEqual([])
    expect(checkPolicyConfig(defaults.policy)).toEqual({ errors: [], warnings: [] })
    expect(() => remoteBranchFor(defaults.checkpoints.branch, 'sample-session-1')).not.toThrow()
  })
})
