// What the hook commands need from the outside world, injectable so tests run them in-process.
export interface HookCommandIO {
  cwd: () => string
  env: () => Record<string, string | undefined>
  stdout: (text: string) => void
  stderr: (text: string) => void
  /** Whether stdin is a terminal (then there is nothing piped to read). */
  stdinIsTTY: () => boolean
  readStdin: () => Promise<string>
}

export const processHookIO: HookCommandIO = {
  cwd: () => process.cwd(),
  env: () => process.env,
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  stdinIsTTY: () => process.stdin.isTTY === true,
  readStdin: () => readAll(process.stdin),
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
  return Buffer.concat(chunks).toString('utf8')
}
