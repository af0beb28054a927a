// Real temporary git repositories for tests. Every repo lives under os.tmpdir() and is removed by
// `cleanup()`. The helpers run git directly (tests only; product code goes through src/git/runner.ts).
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** An environment that ignores the machine's global/system git config, so tests behave the same anywhere. */
export function isolatedGitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const key of Object.keys(env)) if (key.startsWith('GIT_')) delete env[key]
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'Test User',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test User',
    GIT_COMMITTER_EMAIL: 'test@example.com',
    ...extra,
  }
}

export interface TempRepo {
  dir: string
  env: NodeJS.ProcessEnv
  /** Run git in the repo; returns stdout (utf8, untrimmed). */
  git(args: string[], options?: { input?: string | Buffer; env?: NodeJS.ProcessEnv }): string
  write(file: string, content: string | Buffer): void
  read(file: string): string
  remove(file: string): void
  exists(file: string): boolean
  /** `git add -A && git commit`; returns the new HEAD. */
  commitAll(message?: string): string
  cleanup(): void
}

export interface TempRepoOptions {
  files?: Record<string, string | Buffer>
  /** Commit the initial files (default true; false leaves HEAD unborn). */
  commit?: boolean
  bare?: boolean
  env?: Record<string, string>
}

export function tempDir(prefix = 'proctor-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

export function makeTempRepo(options: TempRepoOptions = {}): TempRepo {
  const dir = fs.realpathSync(tempDir('proctor-repo-'))
  const env = isolatedGitEnv(options.env)
  const git = (args: string[], call: { input?: string | Buffer; env?: NodeJS.ProcessEnv } = {}): string =>
    execFileSync('git', args, {
      cwd: dir,
      env: call.env ?? env,
      input: call.input,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
  git(['init', '-q', '-b', 'main', ...(options.bare ? ['--bare'] : [])])
  const repo: TempRepo = {
    dir,
    env,
    git,
    write(file, content) {
      const full = path.join(dir, file)
      fs.mkdirSync(path.dirname(full), { recursive: true })
      fs.writeFileSync(full, content)
    },
    read: (file) => fs.readFileSync(path.join(dir, file), 'utf8'),
    remove: (file) => fs.rmSync(path.join(dir, file), { recursive: true, force: true }),
    exists: (file) => fs.existsSync(path.join(dir, file)),
    commitAll(message = 'commit') {
      git(['add', '-A'])
      git(['commit', '-q', '--allow-empty', '-m', message])
      return git(['rev-parse', 'HEAD']).trim()
    },
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  }
  for (const [file, content] of Object.entries(options.files ?? {})) repo.write(file, content)
  if (!options.bare && (options.commit ?? true) && options.files) repo.commitAll('initial')
  return repo
}

/** A bare repository to push to over file://, plus a helper to read its refs. */
export function makeBareRemote(): TempRepo & { url: string; refSha(ref: string): string | null } {
  const repo = makeTempRepo({ bare: true })
  return Object.assign(repo, {
    url: `file://${repo.dir}`,
    refSha(ref: string): string | null {
      try {
        return repo.git(['rev-parse', '--verify', '-q', ref]).trim()
      } catch {
        return null
      }
    },
  })
}

/** Clone `url` into a new temp dir (e.g. `--depth 1`), with the isolated environment. */
export function cloneRepo(url: string, extraArgs: string[] = []): TempRepo {
  const parent = fs.realpathSync(tempDir('proctor-clone-'))
  const dir = path.join(parent, 'work')
  const env = isolatedGitEnv()
  execFileSync('git', ['clone', '-q', ...extraArgs, url, dir], { env, stdio: 'pipe' })
  const git = (args: string[], call: { input?: string | Buffer; env?: NodeJS.ProcessEnv } = {}): string =>
    execFileSync('git', args, {
      cwd: dir,
      env: call.env ?? env,
      input: call.input,
      encoding: 'utf8',
      stdio: 'pipe',
    })
  return {
    dir,
    env,
    git,
    write(file, content) {
      const full = path.join(dir, file)
      fs.mkdirSync(path.dirname(full), { recursive: true })
      fs.writeFileSync(full, content)
    },
    read: (file) => fs.readFileSync(path.join(dir, file), 'utf8'),
    remove: (file) => fs.rmSync(path.join(dir, file), { recursive: true, force: true }),
    exists: (file) => fs.existsSync(path.join(dir, file)),
    commitAll(message = 'commit') {
      git(['add', '-A'])
      git(['commit', '-q', '--allow-empty', '-m', message])
      return git(['rev-parse', 'HEAD']).trim()
    },
    cleanup: () => fs.rmSync(parent, { recursive: true, force: true }),
  }
}

/**
 * Everything of the user's repository that proctor promises not to touch: the index file's bytes and
 * mtime, HEAD, every ref outside proctor's own (refs/proctor/, refs/proctor-local/, refs/proctor-remote/), the stash, and every worktree file (path, mode, content).
 */
export function userState(
  repo: { dir: string; git: TempRepo['git'] },
  options: { exceptFiles?: (file: string) => boolean } = {},
): string {
  const gitDir = path.resolve(repo.dir, repo.git(['rev-parse', '--git-dir']).trim())
  const indexPath = path.join(gitDir, 'index')
  const index = fs.existsSync(indexPath)
    ? { bytes: fs.readFileSync(indexPath).toString('base64'), mtimeMs: fs.statSync(indexPath).mtimeMs }
    : null
  const head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8')
  const refs = repo
    .git(['for-each-ref', '--format=%(refname) %(objectname)'])
    .split('\n')
    .filter((line) => line !== '' && !/^refs\/proctor(-local|-remote)?\//.test(line))
  const stashLog = fs.existsSync(path.join(gitDir, 'logs/refs/stash'))
    ? fs.readFileSync(path.join(gitDir, 'logs/refs/stash'), 'utf8')
    : null
  const files: string[] = []
  const walk = (rel: string): void => {
    for (const entry of fs.readdirSync(path.join(repo.dir, rel), { withFileTypes: true })) {
      const relPath = rel ? `${rel}/${entry.name}` : entry.name
      if (relPath === '.git' || relPath === '.proctor' || options.exceptFiles?.(relPath)) continue
      const full = path.join(repo.dir, relPath)
      const stat = fs.lstatSync(full)
      if (entry.isDirectory()) walk(relPath)
      else if (entry.isSymbolicLink()) files.push(`${relPath} -> ${fs.readlinkSync(full)}`)
      else files.push(`${relPath} ${stat.mode.toString(8)} ${fs.readFileSync(full).toString('base64')}`)
    }
  }
  walk('')
  // Files git writes next to an index it splits: never for the user's (proctor's private indexes are split,
  // their shared part in proctor's own git directory).
  const shared = fs.readdirSync(gitDir).filter((name) => name.startsWith('sharedindex'))
  return JSON.stringify({ index, head, refs, stashLog, shared, files: files.sort() }, null, 1)
}
