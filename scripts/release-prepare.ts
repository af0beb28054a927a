// Makes a commit ready to release as `version` from the GitHub repository `owner/name`:
//   npm run release:prepare -- 1.0.0 owner/name
// Writes the version where it lives (package.json, package-lock.json, src/util/version.ts, which the
// bundle carries) and package.json's repository with the homepage and bugs derived from it: the one place
// `proctor init` and the release gate (scripts/release-check.ts) read the owner from. It never guesses an
// owner: you name it. Then: CHANGELOG.md's section, npm run build, commit, tag vX.Y.Z, push the tag.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { derivedLinks, githubRepositoryOf } from '../src/util/package-manifest.js'

const root = join(import.meta.dirname, '..')
const [version, repository] = process.argv.slice(2)

function fail(message: string): never {
  process.stderr.write(`release:prepare: ${message}\n`)
  process.exit(2)
}

if (!version || !/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.test(version))
  fail(
    `usage: npm run release:prepare -- <version, e.g. 1.0.0> <owner/name>; got version ${JSON.stringify(version)}`,
  )
if (!repository || githubRepositoryOf(repository) !== repository)
  fail(
    `the second argument is the GitHub repository as owner/name (e.g. acme/proctor); got ${JSON.stringify(repository)}`,
  )

const readJson = (file: string) =>
  JSON.parse(readFileSync(join(root, file), 'utf8')) as Record<string, unknown>
const writeJson = (file: string, value: unknown) =>
  writeFileSync(join(root, file), JSON.stringify(value, null, 2) + '\n')

const pkg = readJson('package.json')
const links = derivedLinks(repository)
const placed: Record<string, unknown> = {}
for (const [key, value] of Object.entries(pkg)) {
  if (key === 'repository' || key === 'homepage' || key === 'bugs') continue
  placed[key] = key === 'version' ? version : value
  // Next to the author, where npm's own `npm init` puts them.
  if (key === 'author') {
    placed.repository = { type: 'git', url: `git+https://github.com/${repository}.git` }
    placed.homepage = links.homepage
    placed.bugs = { url: links.bugs }
  }
}
if (!('repository' in placed))
  Object.assign(placed, {
    repository: { type: 'git', url: `git+https://github.com/${repository}.git` },
    homepage: links.homepage,
    bugs: { url: links.bugs },
  })
writeJson('package.json', placed)

const lock = readJson('package-lock.json') as {
  version?: string
  packages?: Record<string, { version?: string }>
}
lock.version = version
if (lock.packages?.['']) lock.packages[''].version = version
writeJson('package-lock.json', lock)

const versionFile = join(root, 'src/util/version.ts')
const source = readFileSync(versionFile, 'utf8')
const updated = source.replace(/PROCTOR_VERSION = '[^']*'/, `PROCTOR_VERSION = '${version}'`)
if (updated === source && !source.includes(`PROCTOR_VERSION = '${version}'`))
  fail('src/util/version.ts has no PROCTOR_VERSION constant to update')
writeFileSync(versionFile, updated)

const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8')
const hasSection = new RegExp(`^## \\[?${version.replace(/\./g, '\\.')}\\]?(?:\\s|$)`, 'm').test(changelog)
process.stdout.write(
  [
    `package.json: version ${version}, repository ${repository}, homepage ${links.homepage}, bugs ${links.bugs}`,
    `package-lock.json and src/util/version.ts: ${version}`,
    hasSection
      ? `CHANGELOG.md has its "## ${version}" section (the GitHub release's notes)`
      : `CHANGELOG.md has no "## ${version}" section yet: write it (the release refuses without one)`,
    `next: npm run build && git commit -am "release ${version}" && git tag v${version} && git push origin HEAD v${version}`,
    '',
  ].join('\n'),
)
