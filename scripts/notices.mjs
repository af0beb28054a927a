// The format of dist/THIRD_PARTY_NOTICES.txt, shared by rollup.config.mjs (the bundled packages, through
// rollup-plugin-license) and scripts/build.mjs (the vendored node-pty packages, appended after).
export const NOTICES_FILE = 'THIRD_PARTY_NOTICES.txt'

export const NOTICES_HEADER =
  'Third-party software distributed in this directory, with the licence each is distributed under.\n' +
  'proctor itself is MIT-licensed (see LICENSE in the package root).'

export const NOTICES_SEPARATOR = '\n\n' + '-'.repeat(78) + '\n\n'

/**
 * Bundled packages that declare no licence at all, each reviewed by hand: the build fails on any other
 * unlicensed package, so a new one is a decision, not an accident. The note goes into the notices file.
 */
export const UNDECLARED_LICENSES = {
  // Reached through @actions/artifact → unzip-stream → binary; its package.json and README name no
  // licence. Its author publishes his other packages under MIT.
  'buffers@0.1.1': 'none declared by the package (author: James Halliday)',
}

const PERMISSIVE = /\b(MIT|ISC|Apache-2\.0|BSD-[23]-Clause|0BSD|BlueOak-1\.0\.0)\b/

/** rollup-plugin-license's allow test: a permissive licence, or a reviewed package without one. */
export function allowedLicense(dependency) {
  const license = dependency.license
  if (!license) return `${dependency.name}@${dependency.version}` in UNDECLARED_LICENSES
  return PERMISSIVE.test(license) && !/GPL/i.test(license)
}

/**
 * One package's notice: name@version, licence, repository and the licence text it ships (or its author
 * when it ships none). `dependency` has rollup-plugin-license's shape.
 */
export function notice(dependency) {
  const id = `${dependency.name}@${dependency.version}`
  const lines = [id, `License: ${dependency.license ?? UNDECLARED_LICENSES[id] ?? 'unknown'}`]
  const repository = dependency.repository?.url ?? dependency.repository
  if (typeof repository === 'string' && repository) lines.push(`Repository: ${repository}`)
  const text = (dependency.licenseText ?? '').trim()
  if (text) lines.push('', text)
  else if (dependency.author?.name) lines.push(`Author: ${dependency.author.name}`)
  return lines.join('\n')
}
