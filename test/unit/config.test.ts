import { describe, expect, it } from 'vitest'
import { ConfigError, parseConfigText } from '../../src/config/index.js'

/** The error lines a user would see for this proctor.yml text. */
function errorsOf(text: string): string[] {
  try {
    parseConfigText(text, 'proctor.yml')
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as ConfigError).message.split('\n')
  }
  throw new Error('expected the config to be rejected')
}

describe('proctor.yml defaults', () => {
  it('treats an empty file and a comments-only file as all defaults', () => {
    for (const text of ['', '# nothing configured yet\n']) {
      const { config, warnings } = parseConfigText(text, 'proctor.yml')
      expect(warnings).toEqual([])
      expect(config.timeouts).toEqual({ total: 30 * 60_000, idle: 10 * 60_000, grace: 5_000 })
      expect(config.agent).toMatchObject({ pty: true, adapter: 'generic', env: {} })
      expect(config.checkpoints.branch).toBe('proctor/{session}')
      expect(config.checkpoints.max_file_size).toBe(5 * 1024 * 1024)
      expect(config.max_stop_rounds).toBe(3)
      expect(config.hooks_async_pool_size).toBe(10)
      expect(config.stop_hooks).toEqual([])
    }
  })

  it('parses durations and sizes as written into ms and bytes', () => {
    const { config } = parseConfigText(
      'timeouts: { total: 1h30m, idle: 90, grace: 500ms }\ncheckpoints: { max_file_size: 512KiB }\n',
      'proctor.yml',
    )
    expect(config.timeouts).toEqual({ total: 90 * 60_000, idle: 90_000, grace: 500 })
    expect(config.checkpoints.max_file_size).toBe(512 * 1024)
  })
})

describe('proctor.yml errors name file:line:col, the key path and what to write', () => {
  it('unknown key, pointing at the key, with a did-you-mean', () => {
    expect(errorsOf('agent:\n  comand: [claude]\n')).toEqual([
      'proctor.yml:2:3 agent.comand: unknown key "comand" — did you mean "command"?',
    ])
  })

  it('did-you-mean forgives transpositions, case and dashes', () => {
    expect(errorsOf('hooks:\n  stpo: []\n')).toEqual([
      'proctor.yml:2:3 hooks.stpo: unknown key "stpo" — did you mean "stop"?',
    ])
    expect(errorsOf('max-stop-rounds: 3\n')).toEqual([
      'proctor.yml:1:1 max-stop-rounds: unknown key "max-stop-rounds" — did you mean "max_stop_rounds"?',
    ])
    expect(errorsOf('checkpoints:\n  Interval: 10s\n')).toEqual([
      'proctor.yml:2:3 checkpoints.Interval: unknown key "Interval" — did you mean "interval"?',
    ])
  })

  it('did-you-mean works inside list items and nested mappings', () => {
    expect(errorsOf('detect:\n  - { name: a, match: b, respond: { sned: "y" } }\n')).toEqual([
      'proctor.yml:2:37 detect[0].respond.sned: unknown key "sned" — did you mean "send"?',
    ])
  })

  it('a key written at the wrong level says where it belongs', () => {
    expect(errorsOf('interval: 10s\n')).toEqual([
      'proctor.yml:1:1 interval: unknown key "interval" — "interval" belongs under checkpoints',
    ])
    expect(errorsOf('agent:\n  total: 5m\n')).toEqual([
      'proctor.yml:2:3 agent.total: unknown key "total" — "total" belongs under timeouts',
    ])
  })

  it('an unknown key with no close match lists the allowed keys', () => {
    expect(errorsOf('timeouts:\n  forever: 1m\n')).toEqual([
      'proctor.yml:2:3 timeouts.forever: unknown key "forever" — allowed keys: total, idle, grace',
    ])
  })

  it('wrong type says what was expected and what was written', () => {
    expect(errorsOf('policy:\n  allowed_areas: 5\n')).toEqual([
      'proctor.yml:2:18 policy.allowed_areas: expected a list of strings, got a number (5)',
    ])
    expect(errorsOf('stop_hooks:\n  - name: t\n    command: [npm, 5]\n')).toEqual([
      'proctor.yml:3:20 stop_hooks[0].command[1]: expected a string, got a number (5)',
    ])
    expect(errorsOf('- a\n- b\n')).toEqual(['proctor.yml:1:1 expected a mapping (key: value), got a list'])
  })

  it('a YAML 1.1 boolean word gets a hint', () => {
    expect(errorsOf('agent:\n  pty: yes\n')).toEqual([
      'proctor.yml:2:8 agent.pty: expected true or false, got a string ("yes") — YAML 1.2 reads yes as a string; write true or false',
    ])
  })

  it('bad duration and bad size', () => {
    expect(errorsOf('timeouts:\n  total: 5x\n')).toEqual([
      'proctor.yml:2:10 timeouts.total: "5x" is not a duration; write it like 500ms, 30s, 10m, 1h or 1h30m',
    ])
    expect(errorsOf('timeouts:\n  idle: true\n')).toEqual([
      'proctor.yml:2:9 timeouts.idle: expected a duration like 30s or 10m, got true',
    ])
    expect(errorsOf('checkpoints:\n  max_file_size: 5 mebibytes\n')).toEqual([
      'proctor.yml:2:18 checkpoints.max_file_size: "5 mebibytes" is not a size; write it like 512KiB, 5MiB or 1GB (KiB/MiB/GiB are powers of 1024)',
    ])
  })

  it('bad enum lists the choices and suggests the closest', () => {
    expect(errorsOf('checkpoints:\n  push: sometimes\n')).toEqual([
      'proctor.yml:2:9 checkpoints.push: expected one of auto, always, never, got a string ("sometimes")',
    ])
    expect(errorsOf('checkpoints:\n  push: alway\n')).toEqual([
      'proctor.yml:2:9 checkpoints.push: expected one of auto, always, never, got a string ("alway") — did you mean "always"?',
    ])
  })

  it('out of range numbers and empty commands', () => {
    expect(errorsOf('max_stop_rounds: 50\n')).toEqual([
      'proctor.yml:1:18 max_stop_rounds: must be at most 20, got 50',
    ])
    expect(errorsOf('stop_hooks:\n  - { name: t, command: [] }\n')).toEqual([
      'proctor.yml:2:25 stop_hooks[0].command: must not be empty',
    ])
  })

  it('a missing required key points at the entry that lacks it', () => {
    expect(errorsOf('detect:\n  - name: approve\n    kind: approval_request\n')).toEqual([
      'proctor.yml:2:5 detect[0].match: missing required key "match" — expected a string',
    ])
  })

  it('an invalid regular expression in detect[].match, and bad flags', () => {
    const lines = errorsOf("detect:\n  - name: a\n    match: 'Allow (this'\n")
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      /^proctor\.yml:3:12 detect\[0\]\.match: "Allow \(this" is not a valid regular expression: .*group.* — escape special characters/i,
    )
    expect(errorsOf('detect:\n  - { name: a, match: x, flags: g }\n')).toEqual([
      'proctor.yml:2:33 detect[0].flags: "g" are not valid regular expression flags — use only i, m, s and u',
    ])
  })

  it('bad YAML', () => {
    expect(errorsOf('agent:\n  command: [claude, -p\n')).toEqual([
      'proctor.yml:3:1 invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ])
    expect(errorsOf('\tagent: {}\n')).toEqual([
      'proctor.yml:1:1 invalid YAML: Tabs are not allowed as indentation',
    ])
    expect(errorsOf('a: &x 1\nb: *y\n')).toEqual([
      'proctor.yml:1:1 invalid YAML: Unresolved alias (the anchor must be set before the alias): y',
    ])
  })

  it('duplicate key', () => {
    expect(errorsOf('agent:\n  pty: true\n  pty: false\n')).toEqual([
      'proctor.yml:3:3 duplicate key "pty" — a key may appear only once in a mapping; keep one of them',
    ])
  })

  it('collects every problem of a file, in file order', () => {
    const text = [
      'timeouts:',
      '  total: soon', // 2
      'agent:',
      '  comand: [x]', // 4
      'checkpoints:',
      '  push: maybe', // 6
    ].join('\n')
    const lines = errorsOf(text)
    expect(lines.map((line) => line.split(' ')[0])).toEqual([
      'proctor.yml:2:10',
      'proctor.yml:4:3',
      'proctor.yml:6:9',
    ])
  })

  it('exposes structured issues for tools', () => {
    try {
      parseConfigText('agent:\n  comand: [x]\n', 'ci/proctor.yml')
      expect.unreachable()
    } catch (error) {
      expect((error as ConfigError).issues).toEqual([
        {
          file: 'ci/proctor.yml',
          line: 2,
          col: 3,
          path: 'agent.comand',
          message: 'unknown key "comand"',
          hint: 'did you mean "command"?',
        },
      ])
      expect((error as ConfigError).exitCode).toBe(2)
    }
  })
})

describe('rules that span several keys', () => {
  it('agent.command and agent.shell are mutually exclusive', () => {
    expect(errorsOf('agent:\n  command: [claude]\n  shell: claude -p hi\n')).toEqual([
      'proctor.yml:3:3 agent.shell: agent.command and agent.shell cannot both be set — keep command (an argv list, run directly) or shell (a string run by /bin/sh -c)',
    ])
  })

  it('a batch task needs exactly one of command and shell', () => {
    const text =
      'batch:\n  tasks:\n    - name: a\n    - name: b\n      command: [x]\n      shell: y\n    - { name: c, shell: z }\n'
    expect(errorsOf(text)).toEqual([
      'proctor.yml:3:7 batch.tasks[0]: a batch task needs a command or a shell — add command: [file, args…] or shell: "…"',
      'proctor.yml:6:7 batch.tasks[1].shell: a batch task cannot have both command and shell — keep command (an argv list) or shell (a string run by /bin/sh -c)',
    ])
  })

  it('stop hook names are unique', () => {
    const text =
      'stop_hooks:\n  - name: tests\n    command: npm test\n  - name: tests\n    command: npm run lint\n'
    expect(errorsOf(text)).toEqual([
      'proctor.yml:4:11 stop_hooks[1].name: duplicate stop hook name "tests" (also stop_hooks[0]) — each stop hook is reported as the check "proctor / <name>", so names must be unique',
    ])
  })

  it('the stop hook name "policy" is reserved for the policy gate', () => {
    const text = 'stop_hooks:\n  - name: policy\n    command: ./check.sh\n'
    expect(errorsOf(text)).toEqual([
      'proctor.yml:2:11 stop_hooks[0].name: the stop hook name "policy" is reserved for proctor\'s policy gate — its check run "proctor / policy" reports the policy; give this hook another name',
    ])
  })

  it('a stop hook cannot run async', () => {
    const text =
      'hooks:\n  stop:\n    - command: ./check.sh\n      async: true\n  checkpoint:\n    - { command: ./notify.sh, async: true }\n'
    expect(errorsOf(text)).toEqual([
      'proctor.yml:4:14 hooks.stop[0].async: the stop event needs an answer, so it cannot run async; remove async or move the hook to session_end',
    ])
  })

  it('cross-key problems are reported together with schema problems', () => {
    const lines = errorsOf('agent:\n  command: [a]\n  shell: b\n  pty: 3\n')
    expect(lines).toEqual([
      expect.stringMatching(
        /^proctor\.yml:3:3 agent\.shell: agent\.command and agent\.shell cannot both be set/,
      ),
      'proctor.yml:4:8 agent.pty: expected true or false, got a number (3)',
    ])
  })

  it('hooks_async_pool_size outside 1–100 is clamped with a warning, not an error', () => {
    const high = parseConfigText('hooks_async_pool_size: 500\n', 'proctor.yml')
    expect(high.config.hooks_async_pool_size).toBe(100)
    expect(high.warnings).toEqual(['proctor.yml:1:24 hooks_async_pool_size: 500 is outside 1–100; using 100'])
    const low = parseConfigText('hooks_async_pool_size: 0\n', 'proctor.yml')
    expect(low.config.hooks_async_pool_size).toBe(1)
    expect(low.warnings).toEqual(['proctor.yml:1:24 hooks_async_pool_size: 0 is outside 1–100; using 1'])
    expect(parseConfigText('hooks_async_pool_size: 100\n', 'proctor.yml').warnings).toEqual([])
  })

  it('output.buffer, which nothing reads, still loads but warns that it does nothing', () => {
    const { warnings } = parseConfigText('output:\n  buffer: 2MiB\n', 'proctor.yml')
    expect(warnings).toEqual([
      expect.stringMatching(/^proctor\.yml:2:11 output\.buffer: has no effect \(deprecated\)/),
    ])
  })
})
