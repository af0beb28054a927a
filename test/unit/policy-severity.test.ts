import { describe, expect, it } from 'vitest'
import {
  atLeast,
  failsPolicyCheck,
  filesToRevert,
  maxSeverity,
  notifiesAgent,
  shouldRevert,
  WHOLE_DIFF,
} from '../../src/policy/index.js'
import type { Severity } from '../../src/report/model.js'

const v = (severity: Severity, file = 'f') => ({ severity, file })

describe('severity semantics', () => {
  it('orders info < warning < error < critical', () => {
    expect(atLeast('error', 'warning')).toBe(true)
    expect(atLeast('warning', 'error')).toBe(false)
    expect(atLeast('critical', 'critical')).toBe(true)
    expect(maxSeverity(['info', 'critical', 'warning'])).toBe('critical')
    expect(maxSeverity([v('warning'), v('info')])).toBe('warning')
    expect(maxSeverity([])).toBeNull()
  })

  it('tells the agent about warnings and above, never about info', () => {
    expect(notifiesAgent(v('info'))).toBe(false)
    expect(notifiesAgent(v('warning'))).toBe(true)
    expect(notifiesAgent(v('critical'))).toBe(true)
  })

  it('fails the policy check on error or critical only', () => {
    expect(failsPolicyCheck([v('info'), v('warning')])).toBe(false)
    expect(failsPolicyCheck([v('info'), v('error')])).toBe(true)
    expect(failsPolicyCheck([v('critical')])).toBe(true)
    expect(failsPolicyCheck([])).toBe(false)
  })

  it('reverts only critical, file-bound violations, and only with revert_on_violation', () => {
    const on = { revert_on_violation: true }
    expect(shouldRevert(v('critical'), on)).toBe(true)
    expect(shouldRevert(v('error'), on)).toBe(false)
    expect(shouldRevert(v('critical'), { revert_on_violation: false })).toBe(false)
    expect(shouldRevert(v('critical', WHOLE_DIFF), on)).toBe(false)
    expect(
      filesToRevert([v('critical', 'a'), v('warning', 'b'), v('critical', 'a'), v('critical', 'c')], on),
    ).toEqual(['a', 'c'])
  })
})
