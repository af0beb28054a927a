// The hooks block shared by Claude Code, Codex and Gemini CLI settings: event → matcher groups → handlers.
// Merging is idempotent (our handler is added once) and keeps every hook the user already has.

export interface CommandHandler {
  type: 'command'
  command: string
  timeout: number
  name?: string
}

export function withStopHandler(
  existing: unknown,
  event: string,
  handler: CommandHandler,
): Record<string, unknown> {
  const root = isRecord(existing) ? { ...existing } : {}
  const hooks = isRecord(root.hooks) ? { ...root.hooks } : {}
  const groups = Array.isArray(hooks[event]) ? [...(hooks[event] as unknown[])] : []
  const already = groups.some(
    (group) =>
      isRecord(group) &&
      Array.isArray(group.hooks) &&
      group.hooks.some((h) => isRecord(h) && h.command === handler.command),
  )
  if (!already) groups.push({ hooks: [handler] })
  hooks[event] = groups
  root.hooks = hooks
  return root
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function stringField(payload: Record<string, unknown>, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = payload[key]
    if (typeof value === 'string') return value
  }
  return null
}
