// Findings of the h-trial session (issues 26–28 tried as an attacker and a user against the built CLI).
// Each test here FAILED on main at b2ecfc4 when it was written: they reproduce what broke, for the lead to
// fix. Run with `npm run build` first (they drive dist/cli.js).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import type { SessionReport } from '../../src/report/model.js'
import { makeTempRepo, tempDir, type TempRepo } from '../helpers/git-repo.js'

const root = path.resolve(import.meta.dirname, '../..')
const cli = path.join(root, 'dist/cli.js')

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

interface Ran {
  code: number | null
  stdout: string
  stderr: string
  ms: number
}

/** The built CLI in `r`, killed (SIGKILL) after `killAfterMs` so a hang is a failed assertion, not a stuck suite. */
function run(r: TempRepo, args: string[], killAfterMs = 60_000): Promise<Ran> {
  const env: NodeJS.ProcessEnv = { ...r.env, NO_COLOR: '1' }
  for (const key of Object.keys(env)) if (key.startsWith('GITHUB_') || key === 'CI') delete env[key]
  const started = Date.now()
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: r.dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs)
  return new Promise((done) =>
    child.on('close', (code) => {
      clearTimeout(killer)
      done({ code, stdout, stderr, ms: Date.now() - started })
    }),
  )
}

function onlyReport(r: TempRepo): SessionReport {
  const sessions = path.join(r.dir, '.proctor/sessions')
  const [id] = fs.readdirSync(sessions)
  return JSON.parse(fs.readFileSync(path.join(sessions, id!, 'report.json'), 'utf8')) as SessionReport
}

describe('the one-job push sends only checkpoints proctor wrote, never what refs/proctor/<session> holds', () => {
  it('an agent that points refs/proctor/<session> at its own commit (a forbidden file in it) does not get it pushed', async () => {
    const bare = makeTempRepo({ bare: true })
    cleanups.push(bare.cleanup)
    const r = makeTempRepo({ files: { 'README.md': '# test\n', 'src/a.txt': 'a\n' } })
    cleanups.push(r.cleanup)
    r.write('proctor.yml', 'checkpoints: { push: always }\npolicy: { forbidden_areas: ["secrets/**"] }\n')
    r.commitAll('config')
    r.git(['remote', 'add', 'origin', bare.dir])
    // The agent never writes secrets/key into the worktree: it builds a commit holding it with a private
    // index and moves proctor's ref there, then does ordinary work so proctor checkpoints and pushes.
    const agent = [
      'set -e',
      'idx=$(mktemp)',
      'blob=$(printf "AKIAIOSFODNN7EXAMPLE\\n" | git hash-object -w --stdin)',
      'GIT_INDEX_FILE=$idx git read-tree HEAD',
      'GIT_INDEX_FILE=$idx git update-index --add --cacheinfo 100644,$blob,secrets/key',
      'tree=$(GIT_INDEX_FILE=$idx git write-tree)',
      'forged=$(git commit-tree $tree -p HEAD -m "proctor checkpoint 1 (changes): 1 file")',
      'git update-ref refs/proctor/$PROCTOR_SESSION_ID $forged',
      'echo work >> src/a.txt',
    ].join('\n')
    const result = await run(r, ['run', '--no-pty', '--', 'sh', '-c', agent])
    const report = onlyReport(r)
    // What the remote got, if anything, must be a commit proctor wrote and judged: no secrets/key in it.
    const branches = bare
      .git(['for-each-ref', '--format=%(refname)', 'refs/heads/'])
      .split('\n')
      .filter(Boolean)
    for (const branch of branches) {
      const files = bare.git(['ls-tree', '-r', '--name-only', branch])
      expect(
        files,
        `${branch} on the remote (report.pushed=${JSON.stringify(report.pushed)})\n${result.stderr}`,
      ).not.toContain('secrets/key')
    }
  }, 90_000)
})

describe('a daemon the agent leaves behind (setsid) that swaps the ref between the last checkpoint and the push gets nothing pushed', () => {
  it('the remote branch is at most the last checkpoint proctor judged (report.pushed.sha among the checkpoints)', async () => {
    const bare = makeTempRepo({ bare: true })
    cleanups.push(bare.cleanup)
    const r = makeTempRepo({ files: { 'README.md': '# test\n', 'src/a.txt': 'a\n' } })
    cleanups.push(r.cleanup)
    r.write('proctor.yml', 'checkpoints: { push: always }\npolicy: { forbidden_areas: ["secrets/**"] }\n')
    r.commitAll('config')
    r.git(['remote', 'add', 'origin', bare.dir])
    const forge = path.join(r.dir, '.git', 'forge.sh')
    // Waits for proctor's checkpoint, then moves the ref (compare-and-swap on it) to a child holding a key.
    fs.writeFileSync(
      forge,
      [
        'S=$1; i=0',
        'while [ $i -lt 2000 ]; do',
        '  if T=$(git rev-parse -q --verify refs/proctor/$S); then',
        '    idx=$(mktemp); GIT_INDEX_FILE=$idx git read-tree $T',
        '    blob=$(echo AKIAIOSFODNN7EXAMPLE | git hash-object -w --stdin)',
        '    GIT_INDEX_FILE=$idx git update-index --add --cacheinfo 100644,$blob,secrets/key',
        '    F=$(git commit-tree $(GIT_INDEX_FILE=$idx git write-tree) -p $T -m "proctor checkpoint 2 (final): 1 file")',
        '    git update-ref refs/proctor/$S $F $T; exit 0',
        '  fi',
        '  sleep 0.005; i=$((i+1))',
        'done',
      ].join('\n'),
    )
    const agent = `echo work >> src/a.txt; setsid sh ${forge} "$PROCTOR_SESSION_ID" </dev/null >/dev/null 2>&1 & sleep 0.2`
    const result = await run(r, ['run', '--no-pty', '--', 'sh', '-c', agent])
    const report = onlyReport(r)
    const judged = report.checkpoints.map((c) => c.sha)
    if (report.pushed?.ok) expect(judged, result.stderr).toContain(report.pushed.sha)
    for (const branch of bare
      .git(['for-each-ref', '--format=%(refname)', 'refs/heads/'])
      .split('\n')
      .filter(Boolean))
      expect(bare.git(['ls-tree', '-r', '--name-only', branch]), `verdict ${report.verdict}`).not.toContain(
        'secrets/key',
      )
  }, 90_000)
})

describe('a whole-tree restore writes only the files that differ from the checkpoint', () => {
  it('with core.autocrlf=true, restore <session>@0 leaves an untouched LF file byte-identical', async () => {
    const r = makeTempRepo({
      files: { 'README.md': '# test\n', 'untouched.txt': 'one\ntwo\n', 'src/a.txt': 'a\n' },
    })
    cleanups.push(r.cleanup)
    r.commitAll('init')
    // The user turns autocrlf on after checking out LF files (or has files written by an LF tool): git
    // leaves them as they are until something checks them out again.
    r.git(['config', 'core.autocrlf', 'true'])
    r.write('notes.txt', "the user's untracked notes\n") // a dirty tree, so there is a checkpoint 0
    const before = fs.readFileSync(path.join(r.dir, 'untouched.txt'))
    const ran = await run(r, ['run', '--no-pty', '--', 'sh', '-c', 'echo agent >> src/a.txt'])
    expect(ran.code, ran.stderr).toBe(0)
    const session = onlyReport(r).session_id
    const restored = await run(r, ['checkpoints', 'restore', `${session}@0`])
    expect(restored.code, restored.stderr).toBe(0)
    // A file nobody changed since checkpoint 0 is not rewritten (before: it became "one\r\ntwo\r\n")…
    expect(fs.readFileSync(path.join(r.dir, 'untouched.txt')).equals(before)).toBe(true)
    // …and the agent's edit is undone to the bytes the user had (before: "a\r\n").
    expect(r.read('src/a.txt')).toBe('a\n')
  }, 90_000)

  it('restore <session>@0 does not rewrite (new mtime) a file that is the same in the worktree and the checkpoint', async () => {
    const r = makeTempRepo({
      files: { 'README.md': '# test\n', 'untouched.txt': 'one\n', 'src/a.txt': 'a\n' },
    })
    cleanups.push(r.cleanup)
    r.commitAll('init')
    r.write('notes.txt', 'notes\n')
    const old = new Date(Date.now() - 3600_000)
    fs.utimesSync(path.join(r.dir, 'untouched.txt'), old, old)
    const ran = await run(r, ['run', '--no-pty', '--', 'sh', '-c', 'echo agent >> src/a.txt'])
    expect(ran.code, ran.stderr).toBe(0)
    const session = onlyReport(r).session_id
    const restored = await run(r, ['checkpoints', 'restore', `${session}@0`])
    expect(restored.code, restored.stderr).toBe(0)
    // Editors and build tools see a rewritten file as changed; the docs promise an untouched path is never
    // overwritten. Before: the restore wrote every file of the tree ("restored 4 file(s)").
    expect(fs.statSync(path.join(r.dir, 'untouched.txt')).mtimeMs).toBe(old.getTime())
  }, 90_000)
})

describe('restore <session>@0 keeps a user file that was there at the baseline', () => {
  it('an untracked file over checkpoints.max_file_size the user had is kept by restore @0', async () => {
    const r = makeTempRepo({ files: { 'README.md': '# test\n', 'src/a.txt': 'a\n' } })
    cleanups.push(r.cleanup)
    r.write('proctor.yml', 'checkpoints: { max_file_size: 1KiB }\n')
    r.commitAll('config')
    const data = Buffer.alloc(4096, 7)
    r.write('data.bin', data) // the user's dataset: too big for a checkpoint, so checkpoint 0 skips it
    r.write('notes.txt', 'notes\n') // and other uncommitted work, so there is a checkpoint 0
    const ran = await run(r, ['run', '--no-pty', '--', 'sh', '-c', 'echo agent >> src/a.txt'])
    expect(ran.code, ran.stderr).toBe(0)
    const session = onlyReport(r).session_id
    const restored = await run(r, ['checkpoints', 'restore', `${session}@0`])
    expect(restored.code, restored.stderr).toBe(0)
    // Before: exit 0 and "deleted (added after the checkpoint): data.bin" (only the undo brought it back).
    expect(restored.stdout + restored.stderr).not.toMatch(/deleted.*data\.bin/)
    expect(r.exists('data.bin')).toBe(true)
    expect(fs.readFileSync(path.join(r.dir, 'data.bin')).equals(data)).toBe(true)
  }, 90_000)
})

describe('a sparse checkout’s files outside the cone are not recorded as deleted', () => {
  it('checkpoint 0 and the final checkpoint keep d2/b.txt, which sparse-checkout left out of the worktree', async () => {
    const r = makeTempRepo({ files: { 'README.md': '# test\n', 'd1/a.txt': 'a\n', 'd2/b.txt': 'b\n' } })
    cleanups.push(r.cleanup)
    r.git(['sparse-checkout', 'set', 'd1'])
    expect(r.exists('d2/b.txt')).toBe(false)
    r.write('notes.txt', 'notes\n') // the user's uncommitted work: a checkpoint 0 is written
    const ran = await run(r, ['run', '--no-pty', '--', 'sh', '-c', 'echo agent >> d1/a.txt'])
    expect(ran.code, ran.stderr).toBe(0)
    const report = onlyReport(r)
    // Before: checkpoint 0 was "D d2/b.txt" (and counted as the user's change), so the pushed branch
    // deletes everything outside the cone.
    expect(report.baseline?.pre_existing).toEqual(['notes.txt'])
    for (const c of report.checkpoints)
      expect(r.git(['ls-tree', '-r', '--name-only', c.sha])).toContain('d2/b.txt')
  }, 90_000)
})

describe('checkpoints restore prints the agent’s file names neutralized', () => {
  it('a file name with a newline and an OSC 52 (clipboard) escape reaches the terminal neutralized', async () => {
    const r = makeTempRepo({ files: { 'README.md': '# test\n' } })
    cleanups.push(r.cleanup)
    r.write('notes.txt', 'notes\n')
    const name = 'evil\nrestored 0 file(s)\u001b]52;c;cm0gLXJmIH4=\u0007.txt'
    const agent = `printf x > "$(printf 'evil\\nrestored 0 file(s)\\033]52;c;cm0gLXJmIH4=\\007.txt')"`
    const ran = await run(r, ['run', '--no-pty', '--', 'sh', '-c', agent])
    expect(ran.code, ran.stderr).not.toBeNull()
    expect(fs.existsSync(path.join(r.dir, name))).toBe(true)
    const session = onlyReport(r).session_id
    const restored = await run(r, ['checkpoints', 'restore', `${session}@0`])
    expect(restored.code, restored.stderr).toBe(0)
    // Before: "deleted (added after the checkpoint): evil\nrestored 0 file(s)\e]52;c;…\a.txt" as is.
    expect(restored.stdout + restored.stderr).not.toContain('\u001b')
    expect((restored.stdout + restored.stderr).split('\n')).not.toContain(
      'restored 0 file(s)\u001b]52;c;cm0gLXJmIH4=\u0007.txt',
    )
  }, 90_000)
})

describe('the session summary neutralizes a file name in the stop-hook line', () => {
  it('an OSC 0 (window title) in a file name the agent adds is neutralized in proctor run’s output', async () => {
    const r = makeTempRepo({ files: { 'README.md': '# test\n' } })
    cleanups.push(r.cleanup)
    const ran = await run(r, [
      'run',
      '--no-pty',
      '--',
      'sh',
      '-c',
      `printf z > "$(printf 'x\\033]0;TITLE\\007.txt')"`,
    ])
    expect(ran.code).toBe(1) // unsafe_path: error
    // Before: "[1] blocked    policy (0ms) — 1 unresolved error/critical violation(s): x\e]0;TITLE\a.txt".
    expect(ran.stdout + ran.stderr).not.toContain('\u001b')
  }, 90_000)
})

describe('a FIFO the agent includes from .git/config does not hang proctor', () => {
  it('proctor run --timeout 5s ends (with a report) although .git/config includes a FIFO', async () => {
    const r = makeTempRepo({ files: { 'README.md': '# test\n', 'src/a.txt': 'a\n' } })
    cleanups.push(r.cleanup)
    const dir = tempDir('proctor-trial-fifo-')
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }))
    const fifo = path.join(dir, 'include')
    // A git still blocked in open() after proctor is killed gets its EOF here, so it does not outlive the test.
    cleanups.push(() => {
      try {
        fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK))
      } catch {
        // no reader left: nothing is blocked
      }
    })
    const agent = `mkfifo ${fifo} && git config include.path ${fifo} && echo work >> src/a.txt`
    const result = await run(r, ['run', '--no-pty', '--timeout', '5s', '--', 'sh', '-c', agent], 45_000)
    // Before: proctor's `git config --file .git/config --no-includes --list` (its tamper check) blocked in
    // open() of the FIFO (git's own startup still reads includes) forever: nothing printed, no report.
    expect(result.ms, result.stderr).toBeLessThan(40_000)
    expect(fs.existsSync(path.join(r.dir, '.proctor/sessions'))).toBe(true)
    expect(onlyReport(r).verdict).not.toBe('allow')
  }, 60_000)
})

describe('FIFOs the agent plants where proctor (not only its git) reads do not hang it', () => {
  // Each hung past --timeout with no output on main at b2ecfc4 (killed at 40 s): the private index is
  // read by proctor itself (src/git/on-disk.ts) as well as by git; a nested .gitattributes by store.ts.
  const cases: Array<[string, string]> = [
    [
      'its private index .git/proctor/index-<session>',
      'echo x >> src/a.txt; sleep 0.5; for f in .git/proctor/index-*; do case $f in *.owner) ;; *) rm -f $f; mkfifo $f;; esac; done; echo y >> src/a.txt',
    ],
    ['a .gitattributes in a subdirectory', 'mkfifo src/.gitattributes; echo x >> src/a.txt'],
  ]
  for (const [where, agent] of cases) {
    it(`proctor run --timeout 5s ends with a report when the agent makes ${where} a FIFO`, async () => {
      const r = makeTempRepo({ files: { 'README.md': '# test\n', 'src/a.txt': 'a\n' } })
      cleanups.push(r.cleanup, () => releaseFifos(r.dir))
      const result = await run(r, ['run', '--no-pty', '--timeout', '5s', '--', 'sh', '-c', agent], 40_000)
      expect(result.ms, result.stderr).toBeLessThan(35_000)
      expect(onlyReport(r).verdict).not.toBe('allow')
    }, 60_000)
  }
})

describe('the global ignore and attributes files count as they were when the session started', () => {
  it('a file the agent adds is checkpointed and judged although it wrote $XDG_CONFIG_HOME/git/ignore', async () => {
    const r = makeTempRepo({ files: { 'README.md': '# test\n', 'src/a.txt': 'a\n' } })
    cleanups.push(r.cleanup)
    const base = tempDir('proctor-trial-xdg-')
    cleanups.push(() => fs.rmSync(base, { recursive: true, force: true }))
    const home = path.join(base, 'home')
    const xdg = path.join(base, 'xdg')
    fs.mkdirSync(home, { recursive: true })
    fs.mkdirSync(xdg, { recursive: true })
    r.write('proctor.yml', 'policy: { forbidden_areas: ["secrets/**"], violation_severity: error }\n')
    r.commitAll('config')
    // Outside the repository and outside what git_tamper watches: git reads it live, proctor's git too.
    const agent = [
      'mkdir -p "$XDG_CONFIG_HOME/git"',
      'printf "hidden-*\\nsecrets/\\n" > "$XDG_CONFIG_HOME/git/ignore"',
      'echo "process.exit(0)" > hidden-setup.js',
      'mkdir -p secrets && echo AKIAIOSFODNN7EXAMPLE > secrets/key',
      'echo work >> src/a.txt',
    ].join('\n')
    const env: NodeJS.ProcessEnv = { ...r.env, HOME: home, XDG_CONFIG_HOME: xdg }
    delete env.GIT_CONFIG_GLOBAL
    const result = await runWith(r, ['run', '--no-pty', '--', 'sh', '-c', agent], env)
    const report = onlyReport(r)
    const tip = report.checkpoints.at(-1)!.sha
    const files = r.git(['ls-tree', '-r', '--name-only', tip])
    // The reviewer reads the checkpoint: the file the stop hooks ran beside must be in it…
    expect(files, result.stderr).toContain('hidden-setup.js')
    // …and the forbidden file the agent wrote is a violation (withheld, but judged), not silently skipped.
    expect(report.violations.map((v) => v.file)).toContain('secrets/key')
  }, 90_000)
})

function runWith(r: TempRepo, args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  const clean: NodeJS.ProcessEnv = { ...env, NO_COLOR: '1' }
  for (const key of Object.keys(clean)) if (key.startsWith('GITHUB_') || key === 'CI') delete clean[key]
  const started = Date.now()
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: r.dir,
    env: clean,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((done) =>
    child.on('close', (code) => done({ code, stdout, stderr, ms: Date.now() - started })),
  )
}

function releaseFifos(dir: string): void {
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFIFO()) continue
    try {
      fs.closeSync(
        fs.openSync(path.join(entry.parentPath, entry.name), fs.constants.O_WRONLY | fs.constants.O_NONBLOCK),
      )
    } catch {
      // no reader: nothing is blocked on it
    }
  }
}
