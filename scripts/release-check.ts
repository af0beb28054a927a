// The release workflow's gate (.github/workflows/release.yml), run before anything is published:
//   node --import tsx scripts/release-check.ts --tag v1.2.3 --repository owner/name [--notes file] [--dir .]
// Refuses (exit 1, one ::error:: line per problem) unless package.json's version is the tag's, its
// `repository` names the repository the workflow runs in (a package that points elsewhere would make
// `proctor init` write someone else's `uses:` into users' workflows), `homepage` and `bugs` are derived
// from it, and CHANGELOG.md has a section for the version, which it writes to --notes for the GitHub
// release. Tells the workflow (GITHUB_OUTPUT) the version, the major tag to move and the npm dist-tag.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { derivedLinks, githubRepositoryOf } from '../src/util/package-manifest.js'

const SEMVER = /^(\d+)\.\d+\.\d+(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/

/** The text under `## <version>` (or `## [<version>]`) up to the next `## ` heading; null without one. */
function changelogSection(changelog: string, version: string): string | null {
  const escaped = version.replace(/[.+]/g, (c) => `\\${c}`)
  const heading = new RegExp(`^## \\[?${escaped}\\]?(?:[ \\t].*)?$`)
  const lines = changelog.split('\n')
  const start = lines.findIndex((line) => heading.test(line))
  if (start < 0) return null
  const rest = lines.slice(start + 1)
  const end = rest.findIndex((line) => line.startsWith('## '))
  return (end < 0 ? rest : rest.slice(0, end)).join('\n').trim()
}

interface ReleasePlan {
  version: string
  /** The tag that moves to every release of this major version: `v1`. */
  major: string
  prerelease: boolean
  /** npm's dist-tag: `latest`, or `next` for a prerelease (never installed by default). */
  npmTag: string
  notes: string
}

/** What is wrong with releasing `dir` as `tag` from `repository`; the plan when nothing is. */
function checkRelease(
  dir: string,
  tag: string,
  repository: string,
): { problems: string[]; plan: ReleasePlan | null } {
  const problems: string[] = []
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    version?: string
    repository?: unknown
    homepage?: unknown
    bugs?: unknown
    private?: unknown
  }
  const version = tag.replace(/^v/, '')
  const semver = SEMVER.exec(version)
  if (!tag.startsWith('v') || !semver) problems.push(`the tag ${tag} is not vMAJOR.MINOR.PATCH (e.g. v1.2.3)`)
  if (pkg.version !== version)
    problems.push(
      `package.json says version ${pkg.version ?? '(none)'}, the tag ${tag}: run ` +
        `\`npm run release:prepare -- ${version} ${repository}\` and tag the commit that has it`,
    )
  const named = githubRepositoryOf(pkg.repository)
  if (named === null)
    problems.push(
      `package.json names no GitHub repository: run \`npm run release:prepare -- ${version} ${repository}\` ` +
        '(proctor init writes `uses: <repository>@v1` from it; it is never guessed)',
    )
  else if (named.toLowerCase() !== repository.toLowerCase())
    problems.push(
      `package.json's repository is ${named}, but this runs in ${repository}: a package published from ` +
        `here must name it (proctor init would send users to ${named})`,
    )
  if (named !== null) {
    const links = derivedLinks(named)
    const bugs = typeof pkg.bugs === 'string' ? pkg.bugs : (pkg.bugs as { url?: unknown } | undefined)?.url
    if (pkg.homepage !== links.homepage)
      problems.push(`package.json's homepage is ${String(pkg.homepage)}, not ${links.homepage}`)
    if (bugs !== links.bugs) problems.push(`package.json's bugs is ${String(bugs)}, not ${links.bugs}`)
  }
  if (pkg.private !== undefined) problems.push('package.json is private: npm would refuse to publish it')
  const notes = changelogSection(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8'), version)
  if (!notes) problems.push(`CHANGELOG.md has no "## ${version}" section (or it is empty): write one`)
  if (problems.length > 0 || !semver || !notes) return { problems, plan: null }
  const prerelease = semver[2] !== undefined
  return {
    problems,
    plan: { version, major: `v${semver[1]}`, prerelease, npmTag: prerelease ? 'next' : 'latest', notes },
  }
}

function main(): number {
  const { values } = parseArgs({
    options: {
      tag: { type: 'string' },
      repository: { type: 'string' },
      notes: { type: 'string' },
      dir: { type: 'string', default: '.' },
    },
  })
  if (!values.tag || !values.repository) {
    process.stderr.write('usage: release-check.ts --tag vX.Y.Z --repository owner/name [--notes file]\n')
    return 2
  }
  const { problems, plan } = checkRelease(resolve(values.dir), values.tag, values.repository)
  for (const problem of problems) process.stdout.write(`::error::${problem}\n`)
  if (!plan) return 1
  if (values.notes) writeFileSync(values.notes, plan.notes + '\n')
  const outputs = {
    version: plan.version,
    major: plan.major,
    prerelease: String(plan.prerelease),
    npm_tag: plan.npmTag,
  }
  const lines = Object.entries(outputs).map(([key, value]) => `${key}=${value}\n`)
  if (process.env.GITHUB_OUTPUT) appendFileSync(process.env.GITHUB_OUTPUT, lines.join(''))
  process.stdout.write(
    `release ${values.tag} of ${values.repository}: ${lines.join(' ').replace(/\n/g, '')}\n`,
  )
  return 0
}

process.exitCode = main()
