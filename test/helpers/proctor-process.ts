// The CLI and the action's main step as real processes, run from source with tsx, for tests that need
// what a user sees: exit code, stdout, stderr (and no JavaScript stack trace in them).
import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '../..')

export interface ProcessRun {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  ms: number
}

export interface ProcessOptions {
  cwd: string
  env: NodeJS.ProcessEnv
  /** Called with the child once it is spawned (to signal it, or close its stdout). */
  onSpawn?: (child: ChildProcess) => void
  /** SIGKILLed after this long: a regression that hangs fails the test instead of stalling the suite. */
  killAfterMs?: number
  /** Put before the node command line, e.g. `unshare … sh -c "…; exec \"$@\"" sh`. */
  wrap?: string[]
}

/** A line of a JavaScript stack trace, as node prints one. */
export const STACK_LINE = /^ {4}at /m

function run(entry: string, args: string[], opts: ProcessOptions): Promise<ProcessRun> {
  const env: NodeJS.ProcessEnv = { ...opts.env, NO_COLOR: '1' }
  // No concurrent compile jobs: on a loaded machine a job that needs a garbage collection while node is
  // exiting deadlocks its exit (the main thread joins the worker, which waits for the main thread's GC:
  // nodejs/node#54918), and tsx compiles far more at start-up than dist/ does. Seen here as a proctor that
  // printed its answer and never exited.
  const node = [
    process.execPath,
    '--no-concurrent-sparkplug',
    '--no-concurrent-recompilation',
    '--no-concurrent-osr',
    '--import',
    import.meta.resolve('tsx'),
    join(root, entry),
    ...args,
  ]
  const argv = opts.wrap ? [...opts.wrap, ...node] : node
  const started = Date.now()
  const child = spawn(argv[0]!, argv.slice(1), { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stdout.on('error', () => undefined)
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  opts.onSpawn?.(child)
  const guard = setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs ?? 50_000)
  return new Promise((done) =>
    child.on('close', (code, signal) => {
      clearTimeout(guard)
      done({ code, signal, stdout, stderr, ms: Date.now() - started })
    }),
  )
}

/** `proctor <args>` with the repository's environment, minus any GITHUB_* of the machine running the tests. */
export function proctorCli(args: string[], opts: ProcessOptions): Promise<ProcessRun> {
  const env = { ...opts.env }
  for (const key of Object.keys(env)) if (key.startsWith('GITHUB_')) delete env[key]
  return run('src/cli/main.ts', args, { ...opts, env })
}

/** The action's main step (src/action/main.ts) with exactly `opts.env`. */
export function proctorAction(opts: ProcessOptions): Promise<ProcessRun> {
  return run('src/action/main.ts', [], opts)
}

/** The action's post step (src/action/post.ts) with exactly `opts.env` (its state as STATE_* variables). */
export function proctorPost(opts: ProcessOptions): Promise<ProcessRun> {
  return run('src/action/post.ts', [], opts)
}
