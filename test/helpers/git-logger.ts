// A `git` on PATH that logs every call to $PROCTOR_TEST_GIT_LOG and runs the real git: tests count the
// git processes a feature starts, and see when each ran, by putting its directory first on PATH.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

export interface GitLoggerOptions {
  /** Each line starts with the directory git ran in (`pwd -P`). */
  where?: boolean
  /** Also a line `… done` when the call ends (else the wrapper execs git and logs only the start). */
  ends?: boolean
  /** The line holds every argument after the subcommand too (`ls-files -z -t --modified …`). */
  argv?: boolean
}

/**
 * Writes the wrapper as `<dir>/git`. A line holds the subcommand: the first argument that is neither an
 * option nor the value of a `-c`.
 */
export function writeGitLogger(dir: string, options: GitLoggerOptions = {}): void {
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
  const what = options.argv ? '$sub$rest' : '$sub'
  const line = options.where ? `"$(pwd -P) ${what}"` : `"${what}"`
  const run = options.ends
    ? [
        `${JSON.stringify(realGit)} "$@"; code=$?`,
        `printf '%s done\\n' ${line} >> "$PROCTOR_TEST_GIT_LOG"`,
        'exit $code',
      ]
    : [`exec ${JSON.stringify(realGit)} "$@"`]
  fs.writeFileSync(
    path.join(dir, 'git'),
    [
      '#!/bin/sh',
      'skip=0; sub=; rest=',
      'for a in "$@"; do',
      '  if [ -n "$sub" ]; then rest="$rest $a"; continue; fi',
      '  if [ $skip = 1 ]; then skip=0; continue; fi',
      '  case "$a" in -c) skip=1 ;; -*) ;; *) sub=$a ;; esac',
      'done',
      `printf '%s\\n' ${line} >> "$PROCTOR_TEST_GIT_LOG"`,
      ...run,
      '',
    ].join('\n'),
    { mode: 0o755 },
  )
}
