import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { configSchema, type StopHookConfig } from '../../src/config/schema.js'
import type { StopContext } from '../../src/hooks/context.js'
import { runStopHooks } from '../../src/hooks/stop-hooks.js'

const dir = mkdtempSync(join(tmpdir(), 'proctor-stop-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function hooks(list: unknown[]): StopHookConfig[] {
  return configSchema.parse({ stop_hooks: list }).stop_hooks
}

const context: StopContext = {
  session_id: 'sess-1',
  cwd: dir,
  stop_reason: 'completed',
  final_text: 'All done.',
  rounds: 2,
  stop_hook_active: true,
  checkpoint: { ref: 'refs/proctor/sess-1', sha: 'abc123', files_changed: ['src/a.ts'] },
  violations: [],
}

function run(list: unknown[], extra: Partial<Parameters<typeof runStopHooks>[0]> = {}) {
  return runStopHooks({
    hooks: hooks(list),
    context,
    cwd: dir,
    env: process.env,
    graceMs: 200,
    round: 2,
    ...extra,
  })
}

/** A zombie waiting for its (re)parent to reap it is dead for our purposes. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

describe('runStopHooks', () => {
  it('gives every hook the context as JSON on stdin and as PROCTOR_* variables', async () => {
    const outcome = await run([
      { name: 'ctx', command: 'cat > ctx.json; env | grep ^PROCTOR_ | sort > env.txt' },
    ])
    expect(outcome.verdict).toBe('allow')
    const payload = JSON.parse(readFileSync(join(dir, 'ctx.json'), 'utf8'))
    expect(payload).toMatchObject({
      hook_event_name: 'stop',
      session_id: 'sess-1',
      cwd: dir,
      stop_reason: 'completed',
      final_text: 'All done.',
      rounds: 2,
      round: 2,
      stop_hook_active: true,
      checkpoint: { ref: 'refs/proctor/sess-1', sha: 'abc123', files_changed: ['src/a.ts'] },
      violations: [],
      pushed_refs: [],
    })
    const env = readFileSync(join(dir, 'env.txt'), 'utf8')
    for (const line of [
      'PROCTOR_SESSION_ID=sess-1',
      'PROCTOR_HOOK_EVENT=stop',
      'PROCTOR_STOP_REASON=completed',
      'PROCTOR_ROUND=2',
      'PROCTOR_STOP_HOOK_ACTIVE=1',
      'PROCTOR_CHECKPOINT_SHA=abc123',
      'PROCTOR_CHECKPOINT_REF=refs/proctor/sess-1',
      `PROCTOR_CWD=${dir}`,
    ]) {
      expect(env).toContain(line)
    }
  })

  it('runs hooks in parallel: two hooks that each wait for the other both finish', async () => {
    const waitFor = (mine: string, other: string) =>
      `touch ${mine}; i=0; while [ ! -f ${other} ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i+1)); done; [ -f ${other} ]`
    const outcome = await run([
      { name: 'a', command: waitFor('par-a', 'par-b'), timeout: '30s' },
      { name: 'b', command: waitFor('par-b', 'par-a'), timeout: '30s' },
    ])
    expect(outcome.results.map((result) => [result.name, result.verdict])).toEqual([
      ['a', 'allow'],
      ['b', 'allow'],
    ])
  })

  it('blocks when any hook blocks or fails and keeps every reason for the agent', async () => {
    const seen: string[] = []
    const outcome = await run(
      [
        { name: 'pass', command: 'exit 0' },
        { name: 'tests', command: 'echo "2 tests failing" >&2; exit 2' },
        {
          name: 'review',
          command: ['sh', '-c', 'echo \'{"decision":"block","reason":"add a changelog entry"}\''],
        },
        { name: 'unit', command: 'echo "FAIL a.test.js"; echo "1 failed" >&2; exit 1' },
      ],
      {
        onStart: (name) => seen.push(`start ${name}`),
        onResult: (result) => seen.push(`result ${result.name}`),
      },
    )
    expect(outcome.verdict).toBe('block')
    expect(outcome.reasons).toEqual([
      'tests: 2 tests failing',
      'review: add a changelog entry',
      'unit (echo "FAIL a.test.js"; echo "1 failed" >&2; exit 1) exited 1: FAIL a.test.js\n1 failed',
    ])
    expect(outcome.errors).toEqual([])
    expect(
      outcome.results.map((result) => [result.name, result.verdict, result.exit_code, result.round]),
    ).toEqual([
      ['pass', 'allow', 0, 2],
      ['tests', 'block', 2, 2],
      ['review', 'block', 0, 2],
      ['unit', 'block', 1, 2],
    ])
    expect(seen.filter((entry) => entry.startsWith('start'))).toHaveLength(4)
    expect(seen.filter((entry) => entry.startsWith('result'))).toHaveLength(4)

    const failOnly = await run([{ name: 'flaky', command: 'exit 3' }])
    expect(failOnly.verdict).toBe('block')
    expect(failOnly.reasons).toEqual(['flaky (exit 3) exited 3 without output'])
  })

  it('a hook that cannot run blocks, but its error is for the user, not the agent', async () => {
    const outcome = await run([
      { name: 'tests', command: 'npm-tset' },
      { name: 'lint', command: ['./no-such-linter'] },
    ])
    expect(outcome.verdict).toBe('block')
    expect(outcome.reasons).toEqual([])
    expect(outcome.results.map((result) => [result.verdict, result.advisory])).toEqual([
      ['error', undefined],
      ['error', undefined],
    ])
    expect(outcome.errors[0]).toMatch(
      /^tests: tests \(npm-tset\) could not run \(exit 127: command not found\); fix its command in proctor.yml/,
    )
    expect(outcome.errors[1]).toMatch(/^lint: stop hook lint could not start: .*no-such-linter/)
  })

  it('on_error: allow and advisory: true keep a hook advisory: reported, never blocking', async () => {
    const outcome = await run([
      { name: 'soft', command: 'echo flaky >&2; exit 1', on_error: 'allow' },
      { name: 'broken', command: 'npm-tset', on_error: 'allow' },
      { name: 'explicit', command: 'echo "no changelog" >&2; exit 2', on_error: 'allow' },
      { name: 'info', command: 'echo "coverage fell" >&2; exit 2', advisory: true },
    ])
    expect(outcome.results.map((result) => [result.name, result.verdict, result.advisory])).toEqual([
      ['soft', 'error', true],
      ['broken', 'error', true],
      ['explicit', 'block', undefined],
      ['info', 'block', true],
    ])
    // on_error covers the hook's failures and errors; an explicit exit 2 still blocks.
    expect(outcome.verdict).toBe('block')
    expect(outcome.reasons).toEqual(['explicit: no changelog'])
    expect(outcome.results[0]!.reason).toContain('flaky')
    const advisoryOnly = await run([{ name: 'info', command: 'exit 1', advisory: true }])
    expect(advisoryOnly).toMatchObject({ verdict: 'allow', reasons: [], errors: [] })
  })

  it('stops a hook at its timeout, group and all, even when it ignores SIGTERM', async () => {
    const outcome = await run([
      {
        name: 'slow',
        command: `trap '' TERM; sleep 60 & echo $! > slow.pid; echo $$ > slow-sh.pid; wait`,
        timeout: '2s',
      },
      { name: 'quick', command: 'exit 0' },
    ])
    const slow = outcome.results[0]!
    expect(slow).toMatchObject({ name: 'slow', verdict: 'error', timed_out: true })
    expect(slow.reason).toContain('timed out after 2000ms')
    expect(outcome.results[1]!.verdict).toBe('allow')
    // A timeout is a hook error: it blocks, for the user to fix, without sending the agent back.
    expect(outcome.verdict).toBe('block')
    expect(outcome.reasons).toEqual([])
    for (const file of ['slow.pid', 'slow-sh.pid']) {
      expect(alive(Number(readFileSync(join(dir, file), 'utf8')))).toBe(false)
    }
  })

  it('reports a hook that cannot start as an error and still runs the others', async () => {
    const outcome = await run([
      { name: 'missing', command: ['./no-such-hook.sh'] },
      { name: 'fine', command: 'touch fine-ran' },
    ])
    expect(outcome.results[0]!.verdict).toBe('error')
    expect(outcome.results[0]!.reason).toMatch(/stop hook missing could not start/)
    expect(existsSync(join(dir, 'fine-ran'))).toBe(true)
  })

  it('stops every running hook when aborted', async () => {
    const abort = new AbortController()
    const pending = run([{ name: 'long', command: 'echo $$ > long.pid; sleep 60', timeout: '60s' }], {
      signal: abort.signal,
      onStart: () => undefined,
    })
    await waitUntil(() => existsSync(join(dir, 'long.pid')))
    abort.abort()
    const outcome = await pending
    expect(outcome.results[0]!.verdict).toBe('error')
    expect(alive(Number(readFileSync(join(dir, 'long.pid'), 'utf8')))).toBe(false)
  })

  it('allows with no hooks at all', async () => {
    expect(await run([])).toEqual({ verdict: 'allow', results: [], reasons: [], errors: [] })
  })
})

async function waitUntil(check: () => boolean, deadlineMs = 20_000): Promise<void> {
  const end = Date.now() + deadlineMs
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met before the deadline')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('a real `npm test` that fails', () => {
  it("is reported by its failing test, not npm's banner, with the test's file and line", async () => {
    const shop = mkdtempSync(join(tmpdir(), 'proctor-shop-'))
    try {
      writeFileSync(
        join(shop, 'package.json'),
        JSON.stringify({ name: 'shop', version: '1.0.0', scripts: { test: 'node --test' } }),
      )
      writeFileSync(
        join(shop, 'discount.test.js'),
        [
          "const test = require('node:test')",
          "const assert = require('node:assert')",
          "test('no discount under $100', () => assert.strictEqual(36, 40, 'expected 40, got 36'))",
          '',
        ].join('\n'),
      )
      const outcome = await runStopHooks({
        hooks: hooks([{ name: 'tests', command: 'npm test' }]),
        context: { ...context, cwd: shop },
        cwd: shop,
        // Not a terminal, no colours forced: what a CI job's hook sees.
        env: { PATH: process.env.PATH, HOME: shop },
        graceMs: 200,
        round: 1,
      })
      const [result] = outcome.results
      expect(result!.verdict).toBe('block')
      // Node 20 prints TAP here, Node 23+ its spec reporter: either way the failing test leads.
      expect(result!.reason!.split('\n')[0]).toMatch(
        /^tests \(npm test\) exited 1: (?:not ok 1 - |✖ )no discount under \$100$/,
      )
      expect(result!.reason!.split('\n').slice(0, 4).join('\n')).toContain('expected 40, got 36')
      expect(result!.locations).toEqual([expect.objectContaining({ file: 'discount.test.js', line: 3 })])
    } finally {
      rmSync(shop, { recursive: true, force: true })
    }
  })
})
