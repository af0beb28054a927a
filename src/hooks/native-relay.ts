// Under `proctor run`, an agent's own Stop hook (`proctor hook stop --socket …`) does not run the stop hooks
// itself: it hands the agent's hook JSON to the session over a Unix socket and prints the session's answer.
// The session then runs its stop hooks with its own environment (an agent may strip a hook's environment),
// checkpoints first, counts rounds in memory and records every result in its report — nothing the agent can
// write on disk decides the verdict. One JSON line each way.
import { mkdtemp, rm } from 'node:fs/promises'
import { createConnection, createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { NativeAdapterName, NativeAnswer } from './adapters/index.js'

export interface NativeRelayRequest {
  adapter: NativeAdapterName
  session: string
  /** The agent's hook JSON exactly as read from stdin. */
  input: string
}

export interface NativeRelay {
  socket: string
  close(): Promise<void>
}

/** Listens on a fresh socket in a private temp directory (short: Unix socket paths are capped near 104 bytes). */
export async function startNativeRelay(
  handle: (request: NativeRelayRequest) => Promise<NativeAnswer>,
): Promise<NativeRelay> {
  const dir = await mkdtemp(join(tmpdir(), 'proctor-'))
  const socket = join(dir, 'stop.sock')
  // One stop at a time: a second hook call waits for the first answer instead of interleaving rounds.
  let queue: Promise<unknown> = Promise.resolve()
  const server: Server = createServer((connection) => {
    let buffered = ''
    connection.setEncoding('utf8')
    connection.on('error', () => undefined)
    connection.on('data', (chunk: string) => {
      buffered += chunk
      const newline = buffered.indexOf('\n')
      if (newline < 0) return
      const line = buffered.slice(0, newline)
      buffered = ''
      const answer = (queue = queue.then(
        () => answerLine(line, handle),
        () => answerLine(line, handle),
      ))
      void answer.then((result) => connection.end(`${JSON.stringify(result)}\n`))
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(socket, () => resolve())
  })
  return {
    socket,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await rm(dir, { recursive: true, force: true })
    },
  }
}

async function answerLine(
  line: string,
  handle: (request: NativeRelayRequest) => Promise<NativeAnswer>,
): Promise<NativeAnswer> {
  try {
    const request = JSON.parse(line) as NativeRelayRequest
    return await handle(request)
  } catch (error) {
    return { exitCode: 1, stdout: '', stderr: `proctor hook stop: ${(error as Error).message}\n` }
  }
}

/** The hook side: sends the request and returns the session's answer. */
export function relayNativeStop(socket: string, request: NativeRelayRequest): Promise<NativeAnswer> {
  return new Promise((resolve) => {
    let text = ''
    const connection = createConnection(socket)
    connection.setEncoding('utf8')
    connection.on('connect', () => connection.write(`${JSON.stringify(request)}\n`))
    connection.on('data', (chunk: string) => (text += chunk))
    connection.on('error', (error) =>
      resolve({
        exitCode: 1,
        stdout: '',
        stderr: `proctor hook stop: cannot reach proctor session ${request.session} at ${socket}: ${error.message}\n`,
      }),
    )
    connection.on('end', () => {
      try {
        resolve(JSON.parse(text) as NativeAnswer)
      } catch {
        resolve({
          exitCode: 1,
          stdout: '',
          stderr: `proctor hook stop: proctor session ${request.session} gave no answer\n`,
        })
      }
    })
  })
}
