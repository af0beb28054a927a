import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Real processes and PTYs: two cores, so keep parallelism modest to avoid starving timers.
    pool: 'forks',
    maxWorkers: 2,
    reporters: process.env.CI
      ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]]
      : ['default'],
    globalSetup: ['test/helpers/global-setup.ts'],
  },
})
