import { describe, expect, it } from 'vitest'
import { ConfigError, parseConfigText } from '../../src/config/index.js'
import { classifyTrouble, streamTail, type CiCheckRun } from '../../src/github/ci-status.js'
import { currentChecks, failureReason, judgeChecks } from '../../src/hooks/ci-checks-judge.js'
import { MAX_REASON_CHARS } from '../../src/hooks/verdict.js'
import { listHooks } from '../../src/cli/commands/hooks.js'
import { doctorHooks } from '../../src/hooks/doctor.js'

const run = (id: number, name: string, status: string, conclusion: string | null = null): CiCheckRun => ({
  id,
  name,
  status,
  conclusion,
  detailsUrl: null,
  title: null,
  summary: null,
})

describe('which checks count', () => {
  it("takes the latest run of each name, never proctor's own, and a status only where no run has its name", () => {
    const checks = currentChecks(
      [
        run(1, 'build', 'completed', 'failure'),
        run(5, 'build', 'completed', 'success'), // a re-run
        run(3, 'proctor / tests', 'completed', 'failure'),
        run(4, 'docs', 'completed', 'skipped'),
      ],
      [
        { context: 'build', state: 'failure', description: null },
        { context: 'proctor / policy', state: 'failure', description: null },
        { context: 'deploy', state: 'pending', description: null },
      ],
    )
    expect(checks.map((c) => [c.name, c.kind, c.state])).toEqual([
      ['build', 'check run', 'pass'],
      ['deploy', 'status', 'pending'],
      ['docs', 'check run', 'pass'],
    ])
  })

  it('counts a watched check that has not been reported as pending, and ignores checks nobody asked for', () => {
    const checks = currentChecks([run(1, 'lint', 'completed', 'action_required')], [])
    expect(judgeChecks(checks, ['build'])).toEqual({
      failing: [],
      pending: ['build (not reported yet)'],
      passing: [],
    })
    expect(judgeChecks(checks, null).failing.map((c) => c.name)).toEqual(['lint'])
  })
})

describe('the reason sent back', () => {
  it('quotes names, annotations and the log tail without time stamps or escapes, within the reason cap', () => {
    const [build] = currentChecks([{ ...run(1, 'build', 'completed', 'failure'), title: '2 failed' }], [])
    const log = Array.from(
      { length: 500 },
      (_, i) => `2026-01-01T00:00:0${i % 10}.1234567Z \u001b[31mline ${i}\u001b[0m`,
    ).join('\n')
    const reason = failureReason({
      sha: 'f'.repeat(40),
      branch: 'proctor/s-1',
      details: [
        {
          check: build!,
          annotations: [{ path: 'a.ts', line: 3, level: 'failure', title: 'T', message: 'bad\nthing' }],
          log: { text: log },
        },
        { check: { ...build!, name: 'e2e' }, annotations: [], log: { unavailable: 'log not readable' } },
      ],
      pending: ['deploy (queued)'],
      watchedFrom: 'with.checks',
    })
    expect(reason).toMatch(
      /^CI failed on ffffffffffff \(pushed to proctor\/s-1; checks: with\.checks\): build, e2e/,
    )
    expect(reason).toContain('- build (check run, failure): 2 failed')
    expect(reason).toContain('a.ts:3: failure: T: bad thing')
    expect(reason).toContain('    line 499')
    expect(reason).not.toContain('line 400') // two failing checks share one hook's 60-line tail
    expect(reason).toContain('(log not readable)')
    expect(reason).toMatch(/still pending: deploy \(queued\)$/)
    expect(reason).not.toMatch(/\u001b|2026-01-01T/)
    expect(reason.length).toBeLessThanOrEqual(MAX_REASON_CHARS)
  })

  it('caps a reason made long by annotations', () => {
    const [build] = currentChecks([run(1, 'build', 'completed', 'failure')], [])
    const annotations = Array.from({ length: 10 }, (_, i) => ({
      path: 'x.ts',
      line: i,
      level: 'failure',
      title: null,
      message: 'm'.repeat(1000),
    }))
    const reason = failureReason({
      sha: 'a'.repeat(40),
      branch: 'b',
      details: [{ check: build!, annotations, log: null }],
      pending: [],
      watchedFrom: 'x',
    })
    expect(reason).toMatch(/… \(\d+ more characters\)$/)
    expect(reason.length).toBeLessThan(MAX_REASON_CHARS + 40)
  })
})

describe('a job log of any size', () => {
  it('keeps only its end, reading it through', async () => {
    let sent = 0
    const line = Buffer.from(`${'é'.repeat(40)} a log line\n`)
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 8 * 1024 * 1024) {
          controller.enqueue(Buffer.from('the last line\n'))
          controller.close()
          return
        }
        const chunk = Buffer.concat(Array.from({ length: 1000 }, () => line))
        sent += chunk.length
        controller.enqueue(chunk)
      },
    })
    const tail = await streamTail(stream, 64 * 1024)
    expect(tail.endsWith('the last line\n')).toBe(true)
    expect(Buffer.byteLength(tail)).toBeLessThanOrEqual(64 * 1024)
    expect(Buffer.byteLength(tail)).toBeGreaterThan(60 * 1024)
    expect(tail).not.toContain('\uFFFD')
  })
})

describe('GitHub trouble while waiting', () => {
  const answer = (status: number, message: string, headers: Record<string, string> = {}) =>
    Object.assign(new Error(message), { status, response: { headers } })

  it('waits for a rate limit, tries a 5xx again, gives up on a missing permission', () => {
    const now = 1_000_000
    expect(classifyTrouble(answer(403, 'x', { 'retry-after': '7' }), now)).toMatchObject({
      kind: 'rate-limit',
      waitMs: 7000,
    })
    expect(
      classifyTrouble(
        answer(403, 'API rate limit exceeded', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1030' }),
        now,
      ),
    ).toMatchObject({ kind: 'rate-limit', waitMs: 30_000 })
    expect(classifyTrouble(answer(502, 'Bad Gateway'))).toMatchObject({ kind: 'transient' })
    expect(classifyTrouble(answer(422, 'No commit found for SHA'))).toMatchObject({ kind: 'transient' })
    expect(classifyTrouble(new Error('socket hang up'))).toMatchObject({ kind: 'transient' })
    expect(classifyTrouble(answer(403, 'Resource not accessible by integration'))).toMatchObject({
      kind: 'permanent',
      status: 403,
    })
  })
})

describe('proctor.yml', () => {
  const problems = (yaml: string): string => {
    try {
      parseConfigText(yaml, 'proctor.yml')
      return ''
    } catch (error) {
      if (error instanceof ConfigError) return error.message
      throw error
    }
  }

  it('accepts uses: ci-checks with its options, and says what is wrong with a hook that is neither or both', () => {
    const { config } = parseConfigText(
      'stop_hooks:\n  - { name: ci, uses: ci-checks, timeout: 30m, with: { checks: [build], poll_interval: 1m } }\n',
      'proctor.yml',
    )
    expect(config.stop_hooks[0]).toMatchObject({
      uses: 'ci-checks',
      timeout: 30 * 60_000,
      with: { checks: ['build'], poll_interval: 60_000 },
    })
    expect(problems('stop_hooks:\n  - { name: ci }\n')).toMatch(
      /proctor\.yml:2:5 stop_hooks\[0\]: a stop hook needs a command \(or uses: ci-checks\)/,
    )
    expect(problems('stop_hooks:\n  - { name: ci, command: x, uses: ci-checks }\n')).toMatch(
      /stop_hooks\[0\]\.uses: a stop hook has either a command or uses, not both/,
    )
    expect(problems('stop_hooks:\n  - { name: ci, command: x, with: { checks: [a] } }\n')).toMatch(
      /stop_hooks\[0\]\.with: with configures a built-in hook, and this hook has no uses/,
    )
    expect(problems('stop_hooks:\n  - { name: ci, uses: github-ci }\n')).toMatch(/stop_hooks\[0\]\.uses/)
    expect(
      problems('checkpoints: { push: never }\nstop_hooks:\n  - { name: ci, uses: ci-checks }\n'),
    ).toMatch(
      /proctor\.yml:3:\d+ stop_hooks\[0\]\.uses: ci-checks pushes the checkpoint for CI to run on, and checkpoints\.push is never/,
    )
    expect(
      problems('stop_hooks:\n  - { name: ci, uses: ci-checks, with: { poll_interval: 100ms } }\n'),
    ).toMatch(/poll_interval: must be at least 1000ms/)
  })

  it('is listed as the built-in it is, and the doctor looks for no command', () => {
    const { config } = parseConfigText(
      'stop_hooks:\n  - { name: ci, uses: ci-checks, timeout: 30m }\n',
      'proctor.yml',
    )
    expect(listHooks(config)).toMatch(/^ {2}ci {4}uses: ci-checks {2}\(timeout 30m\)$/m)
    expect(doctorHooks(config, process.cwd(), '')).toEqual([])
  })
})
