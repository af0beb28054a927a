// Usage and cost in the report: the price table and proctor.yml's overrides, the report's usage section built
// from the session's meter, the one line every rendering shows, batch and matrix totals, and the action's
// outputs. The real CLIs' output is read in test/integration/usage-cli.test.ts.
import { describe, expect, it } from 'vitest'
import { ReportBuilder } from '../../src/report/builder.js'
import { aggregateReports } from '../../src/report/aggregate.js'
import { renderBatchTerminal } from '../../src/report/batch-terminal.js'
import { policyCheckSummary } from '../../src/report/check-run.js'
import { renderBatchComment, renderJobSummary, renderSessionComment } from '../../src/report/markdown.js'
import { renderSessionTerminal } from '../../src/report/terminal.js'
import { describeUsage } from '../../src/report/words.js'
import type { SessionReport } from '../../src/report/model.js'
import { parseConfigText } from '../../src/config/parse.js'
import { pricerFor } from '../../src/usage/prices.js'
import { usageOutputs } from '../../src/usage/summary.js'
import { OutputTail } from '../../src/usage/tail.js'
import type { UsageSample } from '../../src/usage/types.js'
import { createSanitizer } from '../../src/util/sanitize.js'
import { links, sessionReport } from './github-fixtures.js'

const sanitizer = createSanitizer({ secrets: [] })

function sample(over: Partial<UsageSample>): UsageSample {
  return {
    api: 'anthropic',
    model: 'claude-sonnet-4-5',
    round: 1,
    input_tokens: 0,
    output_tokens: 0,
    cached_input_tokens: 0,
    source: 'proxy',
    status: 200,
    at: 0,
    ...over,
  }
}

/** A finished session's report with these samples on its meter, priced by this proctor.yml `pricing`. */
function reportWith(samples: UsageSample[], pricing: Record<string, { input: number; output: number }> = {}) {
  const builder = new ReportBuilder({
    sessionId: 's',
    command: ['agent'],
    cwd: '/repo',
    mode: 'pipe',
    transcriptPath: '/repo/t.log',
    pricer: pricerFor({ pricing }),
  })
  for (const s of samples) builder.usage.add(s)
  builder.finish({
    status: 'completed',
    verdict: 'allow',
    exitCode: 0,
    signal: null,
    reason: null,
    outputTail: '',
    transcript: { bytes: 0, capped: false },
  })
  return builder.snapshot()
}

describe('the price table', () => {
  const price = pricerFor({})
  it('prices a dated snapshot or a prefixed id as its model, cache reads and writes at their own prices', () => {
    // claude-sonnet-4-5: $3 in, $0.30 cache read, $3.75 cache write, $15 out per million.
    const s = sample({
      model: 'claude-sonnet-4-5-20250929',
      input_tokens: 1_000_000 + 2_000_000 + 400_000,
      cached_input_tokens: 2_000_000,
      cache_write_input_tokens: 400_000,
      output_tokens: 100_000,
    })
    expect(price(s)).toBeCloseTo(3 + 0.6 + 1.5 + 1.5, 9)
    expect(price(sample({ api: 'gemini', model: 'models/gemini-2.5-pro', input_tokens: 1e6 }))).toBeCloseTo(
      1.25,
      9,
    )
    expect(price(sample({ api: 'openai', model: 'gpt-5-2025-08-07', output_tokens: 1e6 }))).toBeCloseTo(10, 9)
  })

  it('has no price for a model it does not know, nor for tokens not split into input and output', () => {
    expect(price(sample({ model: 'claude-opus-9', input_tokens: 5 }))).toBeNull()
    // Not a near name either: gpt-5.4-pro is not gpt-5.4.
    expect(price(sample({ api: 'openai', model: 'gpt-5.4-pro', input_tokens: 5 }))).toBeNull()
    expect(price(sample({ api: 'openai', model: 'gpt-5.1-codex', unsplit_tokens: 650 }))).toBeNull()
  })

  it('takes what the CLI said it cost for a model, unless proctor.yml prices the model', () => {
    const s = sample({ model: 'claude-opus-5-5', input_tokens: 1e6, reported_cost_usd: 7 })
    expect(pricerFor({})(s)).toBe(7)
    expect(pricerFor({ pricing: { 'claude-opus-5-5': { input: 1, output: 1 } } })(s)).toBeCloseTo(1, 9)
  })

  it('proctor.yml pricing: an exact id beats a glob, the longest glob wins, the override beats the table', () => {
    const pricer = pricerFor({
      pricing: {
        '*': { input: 1, output: 1 },
        'claude-*': { input: 2, output: 2 },
        'claude-sonnet-*': { input: 3, output: 3, cached_input: 0.5 },
        'claude-sonnet-4-5': { input: 4, output: 4 },
      },
    })
    const million = (model: string) => pricer(sample({ model, input_tokens: 1e6 }))
    expect(million('claude-sonnet-4-5')).toBeCloseTo(4, 9)
    expect(million('claude-sonnet-4-6')).toBeCloseTo(3, 9)
    expect(million('claude-opus-5')).toBeCloseTo(2, 9)
    expect(million('my-local-model')).toBeCloseTo(1, 9)
    expect(
      pricer(sample({ model: 'claude-sonnet-4-6', input_tokens: 1e6, cached_input_tokens: 1e6 })),
    ).toBeCloseTo(0.5, 9)
  })

  it('proctor.yml: pricing is read and checked like every key', () => {
    const ok = parseConfigText(
      'pricing:\n  "gpt-*": { input: 1.5, output: 6, cached_input: 0.15 }\n',
      'proctor.yml',
    )
    expect(ok.config.pricing).toEqual({ 'gpt-*': { input: 1.5, output: 6, cached_input: 0.15 } })
    expect(() => parseConfigText('pricing:\n  gpt-5: { input: -1, output: 6 }\n', 'proctor.yml')).toThrow(
      /proctor\.yml:2:\d+.*pricing/s,
    )
    expect(() => parseConfigText('pricing:\n  gpt-5: { in: 1, output: 6 }\n', 'proctor.yml')).toThrow(/in/)
  })
})

describe('the report’s usage', () => {
  const samples = [
    sample({ round: 1, input_tokens: 10_000, cached_input_tokens: 8_000, output_tokens: 1_000 }),
    sample({ round: 2, input_tokens: 2_345, output_tokens: 100 }),
    sample({ round: 2, api: 'anthropic', model: 'claude-haiku-4-5', input_tokens: 1_000, output_tokens: 10 }),
  ]

  it('sums the meter’s samples, by model and by round, with an estimated cost', () => {
    const usage = reportWith(samples).usage!
    // sonnet: 4,345 plain × $3 + 8,000 cached × $0.30 + 1,100 out × $15; haiku: 1,000 × $1 + 10 × $5.
    const sonnet = (4_345 * 3 + 8_000 * 0.3 + 1_100 * 15) / 1e6
    const haiku = (1_000 * 1 + 10 * 5) / 1e6
    expect(usage).toMatchObject({
      requests: 3,
      tokens: 14_455,
      input_tokens: 13_345,
      output_tokens: 1_110,
      cached_input_tokens: 8_000,
      estimated: true,
      source: 'proxy',
    })
    expect(usage.cost_usd).toBeCloseTo(sonnet + haiku, 6)
    expect(usage.by_model.map((m) => [m.model, m.requests, m.input_tokens])).toEqual([
      ['claude-sonnet-4-5', 2, 12_345],
      ['claude-haiku-4-5', 1, 1_000],
    ])
    expect(usage.by_round.map((r) => [r.round, r.requests, r.output_tokens])).toEqual([
      [1, 1, 1_000],
      [2, 2, 110],
    ])
  })

  it('counts the proxy’s samples only, once it has any: the CLI’s summary of the same requests is not added', () => {
    const usage = reportWith([
      sample({ source: 'proxy', input_tokens: 100, output_tokens: 10 }),
      sample({ source: 'cli', input_tokens: 100, output_tokens: 10, requests: 1 }),
    ]).usage!
    expect(usage).toMatchObject({ source: 'proxy', requests: 1, input_tokens: 100, output_tokens: 10 })
  })

  it('is absent when nothing was used, and so is every line about it', () => {
    const report = reportWith([])
    expect(report.usage).toBeUndefined()
    expect(renderSessionTerminal(report, { color: false })).not.toContain('usage')
    expect(renderSessionComment(report, { key: 'k', links, sanitizer })).not.toContain('model usage')
    expect(policyCheckSummary(report)).toBe('No policy violations in this session.')
    expect(usageOutputs(report.usage)).toEqual({ tokens: '', 'cost-usd': '' })
  })

  it('shows one line in the terminal, the comment, the job summary and the policy check', () => {
    const usage = reportWith(samples.slice(0, 2)).usage!
    const line = '12.3k tokens in (8.0k cached) · 1.1k out · ≈ $0.03 (estimate)'
    expect(describeUsage(usage)).toBe(line)
    const report: SessionReport = sessionReport({ usage })
    expect(renderSessionTerminal(report, { color: false })).toContain(`\n  usage: ${line}\n`)
    const comment = renderSessionComment(report, { key: 'k', links, sanitizer })
    expect(comment.split('\n').slice(1, 5)).toContain(`<sub>model usage: ${line}</sub>`)
    const summary = renderJobSummary(report, { links, sanitizer })
    expect(summary).toContain(`<br>\n<sub>model usage: ${line}</sub>`)
    // The summary is the complete record: each model's figures.
    expect(summary).toContain(
      '#### Model usage\n\n| model | requests | tokens in | cached | out | cost (estimate) |\n| --- | --- | --- | --- | --- | --- |\n' +
        '| claude-sonnet-4-5 | 2 | 12.3k | 8.0k | 1.1k | ≈ $0.03 |',
    )
    expect(policyCheckSummary(sessionReport({ usage, violations: [] }))).toBe(
      `No policy violations in this session.\n\nModel usage: ${line}.`,
    )
    expect(usageOutputs(usage)).toEqual({ tokens: '13445', 'cost-usd': String(usage.cost_usd) })
  })

  it('a model name from the agent’s output stays text in the summary’s table', () => {
    const usage = reportWith([sample({ model: 'evil|model @admin <b>x</b>', input_tokens: 5 })]).usage!
    const summary = renderJobSummary(sessionReport({ usage }), { links, sanitizer })
    expect(summary).toContain('| evil\\|model @&#8203;admin &lt;b&gt;x&lt;/b&gt; | 1 | 5 | 0 | 0 | unknown |')
  })

  it('says "cost unknown" when a model has no price, and the cost-usd output is empty', () => {
    const usage = reportWith([
      sample({ model: 'someones-model', input_tokens: 1_500, output_tokens: 20 }),
    ]).usage!
    expect(usage.cost_usd).toBeNull()
    expect(describeUsage(usage)).toBe('1.5k tokens in · 20 out · cost unknown')
    expect(usageOutputs(usage)).toEqual({ tokens: '1520', 'cost-usd': '' })
  })

  it('tells tokens a CLI did not split apart as such (Codex’s "tokens used")', () => {
    const usage = reportWith([
      sample({ api: 'openai', model: 'gpt-5.1-codex', source: 'cli', unsplit_tokens: 1_220, requests: 0 }),
    ]).usage!
    expect(usage).toMatchObject({ tokens: 1_220, input_tokens: 0, cost_usd: null, source: 'cli' })
    expect(describeUsage(usage)).toBe('1.2k tokens (in and out not told apart) · cost unknown')
  })
})

describe('batch and matrix totals', () => {
  const input = (name: string, samples: UsageSample[]) => ({
    source: `${name}.json`,
    name,
    report: reportWith(samples),
  })
  const a = [sample({ input_tokens: 1_000_000, output_tokens: 10_000 })] // $3 + $0.15
  const b = [sample({ model: 'claude-haiku-4-5', input_tokens: 100_000, output_tokens: 1_000 })] // $0.10 + $0.005

  it('sums the sessions that reported usage, and shows it in the batch renderings', () => {
    const batch = aggregateReports('m', [input('a', a), input('b', b), input('none', [])])
    expect(batch.usage).toMatchObject({
      sessions: 2,
      requests: 2,
      input_tokens: 1_100_000,
      output_tokens: 11_000,
      tokens: 1_111_000,
      estimated: true,
    })
    expect(batch.usage!.cost_usd).toBeCloseTo(3.255, 6)
    expect(batch.children.map((c) => c.usage?.tokens ?? null)).toEqual([1_010_000, 101_000, null])
    const line = '1.10M tokens in · 11.0k out · ≈ $3.25 (estimate)'
    expect(describeUsage(batch.usage)).toBe(line)
    expect(renderBatchTerminal(batch, { color: false })).toContain(`\n  usage: ${line}\n`)
    const comment = renderBatchComment(batch, { key: 'k', links, sanitizer })
    expect(comment).toContain(`<sub>model usage: ${line}</sub>`)
    expect(comment).toContain(
      '| # | task | role | status | duration | violations | checkpoints | usage | summary |',
    )
    expect(comment).toContain('| 1.00M tokens in · 10.0k out · ≈ $3.15 (estimate) |')
    expect(usageOutputs(batch.usage)).toEqual({ tokens: '1111000', 'cost-usd': '3.255' })
  })

  it('has an unknown cost when any session’s is, and no usage column when no session reported usage', () => {
    const unknown = [sample({ model: 'someones-model', input_tokens: 5 })]
    expect(aggregateReports('m', [input('a', a), input('u', unknown)]).usage!.cost_usd).toBeNull()
    const none = aggregateReports('m', [input('x', []), input('y', [])])
    expect(none.usage).toBeUndefined()
    expect(renderBatchComment(none, { key: 'k', links, sanitizer })).not.toContain('usage')
  })

  it('reads a matrix job’s usage defensively: a mistyped figure counts as nothing, not as NaN', () => {
    const report = reportWith(a)
    const forged = {
      ...report,
      usage: {
        ...report.usage!,
        input_tokens: 'many' as unknown as number,
        cost_usd: 'free' as unknown as number,
      },
    }
    const batch = aggregateReports('m', [{ source: 'f.json', report: forged }])
    expect(batch.usage).toMatchObject({ input_tokens: 0, output_tokens: 10_000, cost_usd: null })
  })
})

describe('the output tail the CLI readers read', () => {
  it('keeps the last bytes across wraps and chunks larger than itself, oldest first', () => {
    const tail = new OutputTail(8)
    expect(tail.text()).toBe('')
    tail.write(Buffer.from('abc'))
    expect(tail.text()).toBe('abc')
    tail.write(Buffer.from('defgh'))
    expect(tail.text()).toBe('abcdefgh')
    tail.write(Buffer.from('ij'))
    expect(tail.text()).toBe('cdefghij')
    tail.write(Buffer.from('0123456789XY'))
    expect(tail.text()).toBe('456789XY')
  })
})
