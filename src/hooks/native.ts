// `proctor hook stop --adapter <name>` outside `proctor run`: called by an agent's own Stop hook that a user wired
// by hand. Runs proctor's stop hooks and answers in that agent's protocol. Consecutive blocks are counted per
// agent session in .proctor/native/ so the agent is sent back at most max_stop_rounds times; a new prompt
// (or, for agents that name none, stop_hook_active=false) starts a fresh count. Under `proctor run` the hook
// relays to the session instead (native-relay.ts).
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Config } from '../config/schema.js'
import type { StopHookResult } from '../report/model.js'
import {
  nativeAdapters,
  type NativeAdapterName,
  type NativeAnswer,
  type NativeStopInput,
} from './adapters/index.js'
import { continuationMessage } from './continue.js'
import { proctorStateDir } from '../state/layout.js'
import { runStopHooks } from './stop-hooks.js'

export interface NativeStopOptions {
  adapter: NativeAdapterName
  /** The agent's hook JSON, as read from stdin. */
  input: string
  cwd: string
  env: Record<string, string | undefined>
  /** Loads proctor.yml for the directory the agent works in. */
  loadConfig: (cwd: string) => Promise<Config>
}

/** What `.proctor/native/<adapter>-<session>.json` holds; the session reads it into its report. */
export interface NativeStopState {
  adapter: NativeAdapterName
  agent_session_id: string
  /** Consecutive blocks answered in the current stop sequence. */
  blocks: number
  /** The prompt the current sequence belongs to (see NativeStopInput.promptKey). */
  prompt_key?: string | null
  /** Every stop-hook run so far in this agent session. */
  rounds: number
  verdict: 'allow' | 'block'
  /** True when proctor let the agent stop although hooks still blocked (max_stop_rounds reached). */
  gave_up: boolean
  reasons: string[]
  results: StopHookResult[]
  updated_at: string
}

/** The agent's hook JSON read through its adapter, or the non-blocking failure answer to give. */
export function parseNativeInput(
  adapterName: NativeAdapterName,
  text: string,
): { input: NativeStopInput } | { failure: NativeAnswer } {
  const adapter = nativeAdapters[adapterName]
  let payload: unknown
  try {
    payload = JSON.parse(text)
  } catch {
    return {
      failure: failure(
        `expected ${adapter.stopEvent} hook JSON from ${adapterName} on stdin, got ${describeInput(text)}`,
      ),
    }
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    return { failure: failure(`expected a JSON object from ${adapterName} on stdin`) }
  }
  return { input: adapter.readInput(payload as Record<string, unknown>) }
}

/**
 * Whether this stop continues the previous block sequence. A prompt key (Codex turn, Gemini prompt) decides
 * when the agent gives one — Gemini's stop_hook_active is false again after any tool use — else the flag.
 */
export function continuesBlockSequence(
  input: NativeStopInput,
  previous: { verdict: 'allow' | 'block'; promptKey: string | null } | null,
): boolean {
  if (!previous || previous.verdict !== 'block') return false
  if (input.promptKey !== null) return input.promptKey === previous.promptKey
  return input.stopHookActive
}

export async function runNativeStop(options: NativeStopOptions): Promise<NativeAnswer> {
  const adapter = nativeAdapters[options.adapter]
  const parsed = parseNativeInput(options.adapter, options.input)
  if ('failure' in parsed) return parsed.failure
  const { input } = parsed
  const cwd = input.cwd ?? options.cwd
  let config: Config
  try {
    config = await options.loadConfig(cwd)
  } catch (error) {
    return failure((error as Error).message)
  }
  const agentSession = input.sessionId ?? 'unknown'
  const statePath = join(
    await proctorStateDir(cwd, 'native'),
    `${options.adapter}-${safeFileName(agentSession)}.json`,
  )
  const previous = await readState(statePath)
  const continuing = continuesBlockSequence(
    input,
    previous ? { verdict: previous.verdict, promptKey: previous.prompt_key ?? null } : null,
  )
  const blocks = continuing ? (previous?.blocks ?? 0) : 0
  const rounds = (previous?.rounds ?? 0) + 1
  const outcome = await runStopHooks({
    hooks: config.stop_hooks,
    context: {
      session_id: options.env.PROCTOR_SESSION_ID ?? `${options.adapter}-${agentSession}`,
      cwd,
      stop_reason: 'completed',
      final_text: input.finalText,
      rounds,
      stop_hook_active: input.stopHookActive,
      checkpoint: null,
      violations: [],
    },
    cwd,
    env: options.env,
    graceMs: config.timeouts.grace,
    round: blocks + 1,
  })
  // Hooks that could not run block the result, but the agent cannot fix proctor.yml: let it stop.
  const onlyErrors = outcome.verdict === 'block' && outcome.reasons.length === 0
  const giveUp = outcome.verdict === 'block' && (blocks >= config.max_stop_rounds || onlyErrors)
  const state: NativeStopState = {
    adapter: options.adapter,
    agent_session_id: agentSession,
    blocks: outcome.verdict === 'block' && !giveUp ? blocks + 1 : 0,
    prompt_key: input.promptKey,
    rounds,
    verdict: outcome.verdict,
    gave_up: giveUp,
    reasons: outcome.reasons,
    results: [...(previous?.results ?? []), ...outcome.results],
    updated_at: new Date().toISOString(),
  }
  await writeFile(statePath, `${JSON.stringify(state, null, 2)}\n`)
  if (outcome.verdict === 'allow') return adapter.answer({ block: false })
  if (onlyErrors) {
    const note = `proctor: stop hooks could not run (${outcome.errors.join('; ')}); letting the agent stop with verdict block`
    return adapter.answer({ block: false, note })
  }
  if (giveUp) {
    const note = `proctor: stop hooks still block after ${config.max_stop_rounds} rounds (max_stop_rounds); letting the agent stop with verdict block`
    return adapter.answer({ block: false, note })
  }
  return adapter.answer({ block: true, reason: continuationMessage(outcome.reasons) })
}

export async function readNativeState(
  cwd: string,
  adapter: NativeAdapterName,
  agentSessionId: string,
): Promise<NativeStopState | null> {
  return readState(
    join(await proctorStateDir(cwd, 'native'), `${adapter}-${safeFileName(agentSessionId)}.json`),
  )
}

async function readState(path: string): Promise<NativeStopState | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as NativeStopState
  } catch {
    return null
  }
}

/** A non-blocking hook error in every supported agent: exit 1, message on stderr. */
function failure(message: string): NativeAnswer {
  return { exitCode: 1, stdout: '', stderr: `proctor hook stop: ${message}\n` }
}

function safeFileName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120) || 'unknown'
}

function describeInput(text: string): string {
  const trimmed = text.trim()
  if (trimmed === '') return 'nothing'
  return JSON.stringify(trimmed.length > 60 ? `${trimmed.slice(0, 60)}…` : trimmed)
}
