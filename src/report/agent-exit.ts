import type { AgentExit } from './model.js'

/** "agent exited 3", "agent killed by SIGTERM"; null when the agent never ran (or an older report). */
export function agentExitText(agent: AgentExit | null | undefined): string | null {
  if (!agent) return null
  if (agent.signal) return `agent killed by ${agent.signal}`
  return agent.exit_code === null ? null : `agent exited ${agent.exit_code}`
}
