// The `uses:` line `proctor init` writes. The action lives in proctor's own GitHub repository, which the
// installed package's package.json names in `repository` (src/util/package-manifest.ts); a package without
// one gets a placeholder that `init` asks the user to fill in (or --action), never a guessed owner.
import { proctorManifest } from '../util/package-manifest.js'

/** The major-version tag the release workflow moves on every 1.x release. */
export const ACTION_MAJOR_TAG = 'v1'

export const ACTION_PLACEHOLDER = 'OWNER/proctor'

export function defaultActionRef(repository: string | null = proctorManifest().repository): string {
  return `${repository ?? ACTION_PLACEHOLDER}@${ACTION_MAJOR_TAG}`
}

/** `owner/repo@ref` or `owner/repo/path@ref`, as a `uses:` line takes it; null when it is not. */
export function checkActionRef(value: string): string | null {
  return /^[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+(\/[A-Za-z0-9._/-]+)?@[A-Za-z0-9._/-]+$/.test(value)
    ? null
    : `--action ${JSON.stringify(value)} is not a \`uses:\` reference; write it as owner/repo@ref, e.g. acme/proctor@v1`
}
