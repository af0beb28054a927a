// What the main step leaves for the post step (GITHUB_STATE, read back with core.getState).
export const STATE = {
  sessionId: 'proctor-session-id',
  cwd: 'proctor-cwd',
  key: 'proctor-key',
  reportPath: 'proctor-report-path',
  /**
   * Set once main reported everything; the post step then has nothing to do. The only state post trusts:
   * the agent could append a forged one to GITHUB_STATE, but that only leaves main's checks open (never
   * green). Nothing else main leaves (report.json) counts: the post step re-judges from the checkpoints.
   */
  finished: 'proctor-finished',
} as const
