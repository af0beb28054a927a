// `proctor hooks doctor`, the git side: will git actually run a pre-push hook that runs proctor? Follows
// what git does (core.hooksPath, else <gitdir>/hooks; a hook that is not executable is skipped) and what
// husky v9 adds (core.hooksPath=.husky/_, whose runner sources .husky/pre-push; HUSKY=0 skips it).
// Looks only: every finding says the command that fixes it.
import { existsSync, readFileSync } from 'node:fs'
import { isAbsolute, join, relative, resolve } from 'node:path'
import { findRepoRoot } from '../state/layout.js'
import { Git } from '../git/runner.js'
import { isExecutable, isFile, type DoctorFinding } from './doctor.js'

const WHERE = 'git pre-push'
const HUSKY_DIR = '.husky/_'
const HUSKY_SETUP = 'npm install --save-dev husky@^9 && npm pkg set scripts.prepare=husky && npx husky'

export async function doctorPrePush(
  cwd: string,
  env: Record<string, string | undefined> = process.env,
): Promise<DoctorFinding[]> {
  const root = findRepoRoot(cwd)
  if (root === null) return [warning('not inside a git repository, so no pre-push hook runs here')]
  const git = new Git({ cwd: root, env })
  let hooksPath: string
  let hooksDir: string
  try {
    // proctor's own git calls pass `-c core.hooksPath=/dev/null`: read the user's setting by its scope,
    // and the default hooks directory from the common git dir (not --git-path, which follows hooksPath).
    const scoped = await git.raw(['config', '--show-scope', '--get-all', 'core.hooksPath'], {
      okExitCodes: [1],
    })
    const values = scoped.stdout
      .split('\n')
      .map((line) => /^([a-z]+)\t(.*)$/.exec(line))
      .filter((match): match is RegExpExecArray => match !== null && match[1] !== 'command')
    hooksPath = values.at(-1)?.[2] ?? ''
    const commonDir = (await git.raw(['rev-parse', '--git-common-dir'])).stdout.trim()
    hooksDir = hooksPath
      ? resolve(root, hooksPath.replace(/^~(?=\/)/, env.HOME ?? '~'))
      : join(resolve(root, commonDir), 'hooks')
  } catch (error) {
    return [warning(`cannot ask git where its hooks are: ${(error as Error).message.split('\n')[0]}`)]
  }
  const hook = join(hooksDir, 'pre-push')
  const shown = isAbsolute(hooksPath) || !hook.startsWith(root) ? hook : relative(root, hook)
  const huskyScript = join(root, '.husky', 'pre-push')
  const usesHusky = existsSync(huskyScript)
  const viaHusky = normalize(hooksPath) === HUSKY_DIR

  const findings: DoctorFinding[] = []
  if (!isFile(hook)) {
    if (usesHusky && !viaHusky) {
      const installed = existsSync(join(root, 'node_modules', 'husky', 'package.json'))
      findings.push(
        error(
          `git will not run .husky/pre-push: core.hooksPath is ${hooksPath ? `"${hooksPath}"` : 'unset'}, ` +
            `so git looks for ${shown}, which does not exist. Fix: ` +
            (installed
              ? '`npx husky` (it sets core.hooksPath to .husky/_)'
              : existsSync(join(root, 'package.json'))
                ? `\`${HUSKY_SETUP}\``
                : `\`npm init -y && ${HUSKY_SETUP}\`, or without npm: \`cp .husky/pre-push ${shown}\``),
        ),
      )
    } else if (viaHusky) {
      findings.push(
        error(`core.hooksPath is .husky/_ but husky has not written its runner there. Fix: \`npx husky\``),
      )
    } else {
      findings.push(
        warning(
          `no pre-push hook (git looks for ${shown}): stop hooks do not run before a push. Fix: ` +
            '`proctor init` (writes .husky/pre-push and sets husky up)',
        ),
      )
    }
    return withHuskySkip(findings, env)
  }
  if (!isExecutable(hook)) {
    findings.push(error(`git skips ${shown}: it is not executable. Fix: \`chmod +x ${shown}\``))
  }
  if (viaHusky) {
    if (!usesHusky) {
      findings.push(
        warning('husky runs .husky/pre-push, which does not exist. Fix: `proctor init` (writes it)'),
      )
    } else if (!mentionsProctor(huskyScript)) {
      findings.push(
        warning(
          '.husky/pre-push does not run proctor. Fix: add `proctor check --pre-push "$@"` to it (or `proctor init --force`)',
        ),
      )
    }
    const prepare = prepareScript(root)
    if (prepare !== undefined && !prepare.includes('husky')) {
      findings.push(
        warning(
          'package.json has no prepare script running husky, so a fresh clone never sets the hook up. ' +
            'Fix: `npm pkg set scripts.prepare=husky`',
        ),
      )
    }
  } else if (!mentionsProctor(hook)) {
    findings.push(
      warning(
        `${shown} does not run proctor. Fix: add \`proctor check --pre-push "$@"\` to it` +
          (usesHusky ? ', or switch to husky: `npx husky`' : ''),
      ),
    )
  }
  return withHuskySkip(findings, env)
}

function withHuskySkip(findings: DoctorFinding[], env: Record<string, string | undefined>) {
  if (env.HUSKY === '0') {
    findings.push(
      warning('HUSKY=0 is set here: husky (and proctor’s hook) skip every hook. Fix: unset HUSKY'),
    )
  }
  return findings
}

function normalize(hooksPath: string): string {
  return hooksPath.replace(/^\.\//, '').replace(/\/+$/, '')
}

function prepareScript(root: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>
    }
    return manifest.scripts?.prepare ?? ''
  } catch {
    return undefined
  }
}

function mentionsProctor(path: string): boolean {
  try {
    return readFileSync(path, 'utf8').includes('proctor')
  } catch {
    return false
  }
}

function error(message: string): DoctorFinding {
  return { level: 'error', where: WHERE, message }
}

function warning(message: string): DoctorFinding {
  return { level: 'warning', where: WHERE, message }
}
