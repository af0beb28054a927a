// Usage read from the real agent CLIs' own output (no metering proxy): the pinned claude, codex and gemini run
// under `proctor run` against the scripted model APIs, which report usage figures no default could produce;
// report.json's usage must equal what the API reported, priced as docs/configuration.md#pricing says, and the
// terminal summary must say it in one line.
import { afterEach, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { proctorCli } from '../helpers/proctor-process.js'
import { codexSetup, geminiSetup, onlyReport, repo, type Cleanups } from '../e2e/agents-harness.js'
import { claudeBinaries, claudeWorld } from '../e2e/claude-harness.js'
import * as openai from '../servers/openai-api.js'
import * as gemini from '../servers/gemini-api.js'

const cleanups: Cleanups = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const RUN_MS = 120_000

describe('usage from the agent CLIs’ own output', () => {
  it(
    'claude -p --output-format json: tokens per model with cache reads and writes, and the cost',
    async () => {
      const binary = claudeBinaries()[0]!
      const here = { dir: '' }
      const world = await claudeWorld(
        binary,
        (_req, h) =>
          h.afterToolResult
            ? { text: 'Wrote it.' }
            : {
                text: 'Writing.',
                toolUse: { name: 'Write', input: { file_path: join(here.dir, 'x.txt'), content: 'hi\n' } },
              },
        {},
        {
          usage: () => ({
            input_tokens: 100,
            cache_read_input_tokens: 1000,
            cache_creation_input_tokens: 200,
            output_tokens: 50,
          }),
        },
      )
      cleanups.push(() => world.cleanup())
      here.dir = world.repo.dir
      const run = await proctorCli(
        [
          'run',
          '--no-push',
          '--',
          'claude',
          '-p',
          '--output-format',
          'json',
          '--permission-mode',
          'acceptEdits',
          'write x.txt',
        ],
        { cwd: world.repo.dir, env: world.env, killAfterMs: RUN_MS },
      )
      expect(run.code, run.stderr).toBe(0)
      // Every request the model API answered, as the API counted it.
      const answered = world.api.requests.filter(
        (r) => r.url.startsWith('/v1/messages?') || r.url === '/v1/messages',
      )
      const n = answered.length
      expect(n).toBeGreaterThanOrEqual(2)
      const model = answered[0]!.body!.model!
      const usage = onlyReport(world.repo).usage!
      expect(usage).toMatchObject({
        source: 'cli',
        estimated: true,
        input_tokens: n * 1300,
        cached_input_tokens: n * 1000,
        output_tokens: n * 50,
        tokens: n * 1350,
      })
      expect(usage.by_model).toEqual([
        expect.objectContaining({ api: 'anthropic', model, input_tokens: n * 1300, output_tokens: n * 50 }),
      ])
      // claude-opus-5-5 at $4 in, $0.20 cache read, $5 cache write, $20 out per million tokens.
      expect(model).toBe('claude-opus-5-5')
      expect(usage.cost_usd).toBeCloseTo(n * 0.0026, 9)
      // Two requests (the Write, then the answer): the line the terminal summary prints.
      expect(n).toBe(2)
      expect(run.stderr + run.stdout).toContain(
        'usage: 2.6k tokens in (2.0k cached) · 100 out · ≈ $0.0052 (estimate)',
      )
    },
    RUN_MS,
  )

  it(
    'codex exec: "tokens used" is counted as it is printed, unsplit, and its cost is unknown',
    async () => {
      const codex = await codexSetup(cleanups, {
        script: [[openai.message('All done.')]],
        usage: () => ({ input_tokens: 1000, cached_tokens: 400, output_tokens: 50 }),
      })
      const r = repo(cleanups, {})
      const run = await proctorCli(['run', '--no-push', '--', 'codex', 'exec', 'say hi'], {
        cwd: r.dir,
        env: codex.env(r),
        killAfterMs: RUN_MS,
      })
      expect(run.code, run.stderr).toBe(0)
      const usage = onlyReport(r).usage!
      // Codex prints input not read from the cache plus output: 600 + 50.
      expect(usage).toMatchObject({
        tokens: 650,
        input_tokens: 0,
        output_tokens: 0,
        cost_usd: null,
        source: 'cli',
      })
      expect(usage.by_model.map((m) => m.model)).toEqual(['gpt-5.1-codex'])
      expect(run.stderr + run.stdout).toContain(
        'usage: 650 tokens (in and out not told apart) · cost unknown',
      )
    },
    RUN_MS,
  )

  it(
    'codex exec --json: input, cached and output per turn, priced for the model on the command line',
    async () => {
      const codex = await codexSetup(cleanups, {
        script: [[openai.message('All done.')]],
        usage: () => ({ input_tokens: 1000, cached_tokens: 400, output_tokens: 50 }),
      })
      const r = repo(cleanups, {})
      const run = await proctorCli(
        ['run', '--no-push', '--', 'codex', 'exec', '--json', '-m', 'gpt-5.1-codex', 'say hi'],
        { cwd: r.dir, env: codex.env(r), killAfterMs: RUN_MS },
      )
      expect(run.code, run.stderr).toBe(0)
      const usage = onlyReport(r).usage!
      expect(usage).toMatchObject({
        input_tokens: 1000,
        cached_input_tokens: 400,
        output_tokens: 50,
        tokens: 1050,
      })
      // gpt-5.1-codex: $1.25 in, $0.125 cached, $10 out per million: 600 × 1.25 + 400 × 0.125 + 50 × 10.
      expect(usage.cost_usd).toBeCloseTo(0.0013, 9)
    },
    RUN_MS,
  )

  it(
    'the interactive codex: the "Token usage" line it prints on exit, priced for the model on the command line',
    async () => {
      const codex = await codexSetup(cleanups, {
        script: [[openai.message('All done.')]],
        usage: () => ({ input_tokens: 1000, cached_tokens: 400, output_tokens: 50 }),
      })
      // The line is printed only by a codex that exits by itself after /exit: on a loaded machine the TUI
      // can take longer than the default 5 s grace to quit, and a stopped codex prints nothing.
      const r = repo(cleanups, { 'proctor.yml': 'timeouts: { grace: 60s }\n' })
      const run = await proctorCli(
        ['run', '--no-push', '--agent', 'codex', '--', 'codex', '-m', 'gpt-5.1-codex', 'say hi'],
        { cwd: r.dir, env: codex.env(r), killAfterMs: RUN_MS },
      )
      expect(run.code, run.stderr).toBe(0)
      const report = onlyReport(r)
      expect(
        report.events.filter((e) => e.kind === 'exit' || e.kind === 'warning').map((e) => e.message),
      ).toContain('asked the agent to exit (agent.quit) and it did')
      const usage = report.usage!
      expect(usage).toMatchObject({
        input_tokens: 1000,
        cached_input_tokens: 400,
        output_tokens: 50,
        tokens: 1050,
      })
      expect(usage.cost_usd).toBeCloseTo(0.0013, 9)
    },
    RUN_MS,
  )

  it(
    'gemini -p --output-format json: stats per model, priced by proctor.yml’s pricing',
    async () => {
      const setup = await geminiSetup(cleanups, [[gemini.text('All done.')]], undefined, {
        usage: () => ({
          promptTokenCount: 1000,
          cachedContentTokenCount: 400,
          candidatesTokenCount: 50,
        }),
      })
      const r = repo(cleanups, {
        'proctor.yml':
          'pricing:\n  "*": { input: 1, output: 2, cached_input: 0.5 }\n  scripted: { input: 3, output: 4 }\n',
      })
      r.commitAll('proctor.yml')
      const run = await proctorCli(
        ['run', '--no-push', '--', 'gemini', '-p', 'say hi', '--output-format', 'json', '--skip-trust'],
        { cwd: r.dir, env: setup.env(r), killAfterMs: RUN_MS },
      )
      expect(run.code, run.stderr).toBe(0)
      const usage = onlyReport(r).usage!
      // The scripted API answers as model "scripted": the exact key wins over the glob (no cached price: input's).
      const main = usage.by_model.find((m) => m.model === 'scripted')
      expect(main).toMatchObject({
        api: 'gemini',
        requests: setup.api.turns().length,
        input_tokens: 1000,
        cached_input_tokens: 400,
        output_tokens: 50,
      })
      expect(main!.cost_usd).toBeCloseTo((1000 * 3 + 50 * 4) / 1e6, 9)
      // Gemini's own side requests (its model router) are counted under their model, priced by the glob.
      expect(usage.cost_usd).not.toBeNull()
    },
    RUN_MS,
  )
})
