// What the main step leaves for the post step (GITHUB_STATE, read back with core.getState).
export const STATE = {
  sessionId: 'proctor-session-id',
  cwd: 'proctor-cwd',
  key: 'proctor-key',
  reportPath: 'proctor-report-path',
  /** Set once main reported everything; the post step then has nothing to do. */
  finished: 'proctor-finished',
} as const
