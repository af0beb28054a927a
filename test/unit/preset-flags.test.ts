// A preset's native-hook flags are added to the agent's command only when the command does not already
// have them: Codex 0.169.0 exits 2 on a repeated --dangerously-bypass-hook-trust.
import { describe, expect, it } from 'vitest'
import { describeFlags, mergeFlags } from '../../src/agents/presets/flags.js'

const codex = [
  '-c',
  'hooks.Stop=[{hooks=[{type="command",command="proctor hook stop",timeout=90}]}]',
  '--dangerously-bypass-hook-trust',
]

describe('mergeFlags', () => {
  it('adds what the command lacks, in order', () => {
    expect(mergeFlags(['exec', 'fix it'], codex)).toEqual({ added: codex, present: [] })
  })

  it('leaves out a flag the user gave (alone or as --flag=value) and says so', () => {
    expect(mergeFlags(['exec', '--dangerously-bypass-hook-trust', 'fix it'], codex)).toEqual({
      added: codex.slice(0, 2),
      present: ['--dangerously-bypass-hook-trust'],
    })
    expect(mergeFlags(['--dangerously-bypass-hook-trust=true'], codex).present).toEqual([
      '--dangerously-bypass-hook-trust',
    ])
  })

  it('a flag with a value is left out only when the value is the same: another -c is the user’s own', () => {
    expect(mergeFlags(['-c', 'model="o3"'], codex).added).toEqual(codex)
    expect(mergeFlags(['-c', codex[1]!], codex).added).toEqual([codex[2]])
  })

  it('describes the added flags in one short line', () => {
    expect(describeFlags(codex)).toBe('-c hooks.Stop=… --dangerously-bypass-hook-trust')
    expect(
      describeFlags(['--settings', '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}']),
    ).toBe('--settings …')
  })
})
