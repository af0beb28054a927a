// The policy's inputs and vocabulary. ChangedFile is the checkpoint store's diff entry.
import type { Config } from '../config/schema.js'
import type { Severity } from '../report/model.js'

export type { ChangedFile } from '../checkpoints/diff.js'

export type PolicyConfig = Config['policy']

/** The names of the constraints: used as keys of `policy.severities` and in every report. */
export const CONSTRAINTS = [
  'forbidden_area',
  'protected_area',
  'outside_allowed',
  'symlink_escape',
  'new_executable',
  'file_size',
  'diff_size',
  'unsafe_path',
  'git_tamper',
  'tests_weakened',
  'secret_content',
] as const

export type Constraint = (typeof CONSTRAINTS)[number]

/**
 * Constraints whose default is not policy.violation_severity: a path that can forge log lines and a
 * change to the repository's own machinery (hooks, config) and a secret written into a file are never mere
 * warnings unless the user says so.
 */
export const DEFAULT_SEVERITIES: Partial<Record<Constraint, Severity>> = {
  unsafe_path: 'error',
  git_tamper: 'critical',
  // Tests weakened to get green are what a reviewer must see before merging: the stop is blocked.
  tests_weakened: 'error',
  secret_content: 'critical',
}

/** `file` of a violation that concerns the whole diff rather than one file (diff_size). */
export const WHOLE_DIFF = ''

export const MODE_EXECUTABLE = '100755'
export const MODE_SYMLINK = '120000'
