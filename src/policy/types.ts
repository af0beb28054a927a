// The policy's inputs and vocabulary. ChangedFile is the checkpoint store's diff entry.
import type { Config } from '../config/schema.js'

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
] as const

export type Constraint = (typeof CONSTRAINTS)[number]

/** `file` of a violation that concerns the whole diff rather than one file (diff_size). */
export const WHOLE_DIFF = ''

export const MODE_EXECUTABLE = '100755'
export const MODE_SYMLINK = '120000'
