// The metering proxy (src/proxy/) against a direct connection to the same loopback model API, in the same
// run (the API and the client in threads of their own): added latency per request (a small JSON answer, keep-alive, sequential), time to the first event of
// a stream, and the throughput of a long streamed answer (SSE deltas, read and metered on the way).
// Run alone: node --import tsx bench/proxy.ts
import { once } from 'node:events'
import { Worker } from 'node:worker_threads'
import { pathToFileURL } from 'node:url'
import { startModelProxy } from '../src/proxy/server.js'
import { Budget } from '../src/proxy/budget.js'
import { UsageMeter } from '../src/usage/meter.js'

const KEY = 'sk-bench'
const PLACEHOLDER = 'proctor-session-bench'
const REQUESTS = 300
const STREAM_BYTES = Number(process.env.BENCH_STREAM_BYTES ?? 32 * 1024 ** 2)

export async function runProxyBench(): Promise<Record<string, unknown>> {
  // The model API and the agent are other processes in life: each gets a thread (its own event loop) here,
  // so the proxy's work is not counted twice in one loop.
  const upstream = new Worker(UPSTREAM, { eval: true, workerData: { streamBytes: STREAM_BYTES } })
  const [port] = (await once(upstream, 'message')) as [number]
  const direct = `http://127.0.0.1:${port}`
  const meter = new UsageMeter()
  const proxy = await startModelProxy({
    api: 'anthropic',
    upstream: direct,
    key: KEY,
    placeholder: PLACEHOLDER,
    retries: 3,
    meter,
    budgets: [new Budget({ usd: null, tokens: null, requests: null, warn_at: 0.8 }, { meter })],
    round: () => 1,
    startedAt: Date.now(),
    onWarning: () => undefined,
    onStop: () => undefined,
  })
  const client = new Worker(CLIENT, { eval: true })
  const ask = async <T>(job: Record<string, unknown>): Promise<T> => {
    client.postMessage(job)
    return ((await once(client, 'message')) as [T])[0]
  }
  try {
    // Interleaved rounds, so a noisy neighbour hits both alike.
    const d: number[] = []
    const p: number[] = []
    for (let i = 0; i < 3; i++) {
      d.push(...(await ask<number[]>({ kind: 'latency', base: direct, key: KEY, n: REQUESTS })))
      p.push(...(await ask<number[]>({ kind: 'latency', base: proxy.url, key: PLACEHOLDER, n: REQUESTS })))
    }
    type Stream = { first_event_ms: number; mb_per_s: number }
    const ds: Stream[] = []
    const ps: Stream[] = []
    const df: Stream[] = []
    const pf: Stream[] = []
    for (let i = 0; i < 5; i++) {
      ds.push(await ask<Stream>({ kind: 'stream', path: '/v1/messages', base: direct, key: KEY }))
      ps.push(await ask<Stream>({ kind: 'stream', path: '/v1/messages', base: proxy.url, key: PLACEHOLDER }))
    }
    for (let i = 0; i < 21; i++) {
      df.push(await ask<Stream>({ kind: 'stream', path: '/v1/messages/first', base: direct, key: KEY }))
      pf.push(
        await ask<Stream>({ kind: 'stream', path: '/v1/messages/first', base: proxy.url, key: PLACEHOLDER }),
      )
    }
    // The best of five: on a shared machine a neighbour's burst only ever slows a run down.
    const mbs = (xs: Stream[]) => round(Math.max(...xs.map((x) => x.mb_per_s)))
    const firstEvent = (xs: Stream[]) => round(median(xs.map((x) => x.first_event_ms)))
    const added = median(p) - median(d)
    const ratio = mbs(ps) / mbs(ds)
    return {
      per_request: {
        requests: REQUESTS * 3,
        direct_p50_ms: round(median(d)),
        proxy_p50_ms: round(median(p)),
        direct_p95_ms: round(percentile(d, 0.95)),
        proxy_p95_ms: round(percentile(p, 0.95)),
        added_p50_ms: round(added),
        target: 'added p50 <= 2 ms',
        ok: added <= 2,
      },
      first_event: {
        streams: 21,
        direct_p50_ms: firstEvent(df),
        proxy_p50_ms: firstEvent(pf),
        added_p50_ms: round(firstEvent(pf) - firstEvent(df)),
        target: 'added p50 <= 2 ms',
        ok: firstEvent(pf) - firstEvent(df) <= 2,
      },
      stream: {
        bytes: STREAM_BYTES,
        direct_mb_per_s: mbs(ds),
        proxy_mb_per_s: mbs(ps),
        throughput_ratio_vs_direct: round(ratio),
        target: '>= 0.5x the direct throughput (a model streams well under 1 MB/s)',
        ok: ratio >= 0.5,
        metered_output_tokens: meter.samples().at(-1)?.output_tokens ?? null,
      },
    }
  } finally {
    await client.terminate()
    await proxy.close()
    await upstream.terminate()
  }
}

/** The model API: a small JSON answer, or a long SSE stream written as fast as the reader takes it. */
const UPSTREAM = `
const { createServer } = require('node:http')
const { parentPort, workerData } = require('node:worker_threads')
const delta = 'event: content_block_delta\\ndata: ' + JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x'.repeat(900) } }) + '\\n\\n'
const server = createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    if (req.url === '/v1/messages/small') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"type":"message","model":"m","usage":{"input_tokens":10,"output_tokens":5}}')
      return
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.write('event: message_start\\ndata: ' + JSON.stringify({ type: 'message_start', message: { model: 'm', usage: { input_tokens: 10, output_tokens: 0 } } }) + '\\n\\n')
    if (req.url === '/v1/messages/first') {
      // A model's pace: the first event, then the rest a moment later.
      setTimeout(() => res.end('event: message_stop\\ndata: {}\\n\\n'), 20)
      return
    }
    let sent = 0
    const pump = () => {
      while (sent < workerData.streamBytes) {
        sent += delta.length
        if (!res.write(delta)) return void res.once('drain', pump)
      }
      res.end('event: message_delta\\ndata: ' + JSON.stringify({ type: 'message_delta', usage: { output_tokens: 9000 } }) + '\\n\\n')
    }
    setImmediate(pump)
  })
})
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port))
`

/** The agent: sequential keep-alive requests, or one long stream read to its end. */
const CLIENT = `
const { request, Agent } = require('node:http')
const { parentPort } = require('node:worker_threads')
const agent = new Agent({ keepAlive: true, maxSockets: 1 })
const call = (base, path, key, onFirst) => new Promise((resolve, reject) => {
  const url = new URL(base + path)
  const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent,
    headers: { 'x-api-key': key, 'content-type': 'application/json' } }, (res) => {
    let bytes = 0
    res.once('data', () => onFirst && onFirst())
    res.on('data', (c) => (bytes += c.length))
    res.on('end', () => resolve(bytes))
  })
  req.on('error', reject)
  req.end('{"model":"m","messages":[]}')
})
parentPort.on('message', async (job) => {
  if (job.kind === 'latency') {
    const times = []
    for (let i = 0; i < job.n; i++) {
      const t = performance.now()
      await call(job.base, '/v1/messages/small', job.key)
      times.push(performance.now() - t)
    }
    parentPort.postMessage(times)
    return
  }
  const t = performance.now()
  let first = 0
  const bytes = await call(job.base, job.path, job.key, () => (first = performance.now() - t))
  const ms = performance.now() - t
  parentPort.postMessage({ first_event_ms: first, mb_per_s: bytes / 1024 ** 2 / (ms / 1000) })
})
`

function median(xs: number[]): number {
  return percentile(xs, 0.5)
}

function percentile(xs: number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!
}

function round(n: number): number {
  return Math.round(n * 100) / 100
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(JSON.stringify(await runProxyBench(), null, 2) + '\n')
}
