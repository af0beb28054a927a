// What judging a checkpoint compiles once per policy (the rules' globs, the test-file matchers of every
// language), done while the agent works so the checkpoint at its exit does not wait for it. A regular
// expression is compiled at its first uses, not when it is made: a few paths through every matcher do that
// (together ~20 ms that were in the wait after the agent's exit).
import { compilePolicy } from './compile.js'
import { testFileMatchers } from './tests-weakened/index.js'
import type { PolicyConfig } from './types.js'

export function prepareJudge(policy: PolicyConfig): void {
  if (prepared.has(policy)) return
  compilePolicy(policy)
  for (const { areas } of testFileMatchers(policy))
    if (!areas.empty) for (const path of WARM_PATHS) areas.match(path)
  prepared.add(policy)
}

/** The policies already prepared: a store asks before each checkpoint (workspace.ts). */
const prepared = new WeakSet<PolicyConfig>()

/** A few paths that go through every pattern (a regular expression is compiled natively at its second use). */
const WARM_PATHS = ['src/warm/a.ts', 'lib/warm/b.py', 'c']
