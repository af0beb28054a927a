// What process.ts needs from a spawning backend (PTY or pipes). Adapters only spawn and carry
// bytes; the group lifecycle (stop, grace, leftovers, registry) lives in process.ts.
import type { WriteResult } from './types.js'

export interface LeaderExit {
  exitCode: number | null
  signal: NodeJS.Signals | null
}

export interface ChildAdapter {
  readonly pid: number
  /** The leader was reaped. */
  readonly leaderExit: Promise<LeaderExit>
  /** Every byte of output has been delivered (all output streams reached EOF). */
  readonly outputEnd: Promise<void>
  /** Stops waiting for output held open by processes outside our control; resolves outputEnd. */
  abandonOutput(): void
  write(data: string | Buffer): Promise<WriteResult>
  resize(cols: number, rows: number): void
}

export interface AdapterOptions {
  file: string
  args: string[]
  cwd: string
  env: Record<string, string>
  cols: number
  rows: number
  stdin?: string | Buffer
  keepStdinOpen?: boolean
  /** With `reuseBuffer`, `chunk` is only valid during the call: copy what you keep. */
  onOutput: (chunk: Buffer, stream: 'pty' | 'stdout' | 'stderr') => void
  /** Read into one reused buffer (see reuse-read.ts) rather than a fresh one per read. */
  reuseBuffer?: boolean
}
