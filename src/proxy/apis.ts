// The three model API families the metering proxy speaks: where each CLI reads its key and base URL, how the
// key travels on the wire, which requests are model calls (one usage sample each), and the error body each
// CLI shows when the proxy refuses a request. One row per API; the proxy and the session wiring read it.
import type { ModelApi } from '../usage/types.js'

export interface ApiSpec {
  /** The public endpoint, used when neither model_api.upstream nor the base-URL variable names another. */
  defaultUpstream: string
  /** Variables the CLIs read the key from, first found wins; all are withheld from the agent. */
  keyEnv: readonly string[]
  /** Variables that point the CLI elsewhere: proctor's own value is the upstream, the agent's is the proxy. */
  baseUrlEnv: readonly string[]
  /** Request headers that may carry the key (lower case); `authorization` is "Bearer <key>". */
  keyHeaders: readonly string[]
  /** Whether a `?key=` query parameter may carry it (Gemini). */
  keyQuery: boolean
  /** A model call: one usage sample. */
  metered(method: string, path: string): boolean
  /**
   * A request that spends nothing (a token count) and is forwarded unmetered, besides GET and HEAD. Every
   * other request is refused: batch, file and embedding endpoints would spend past the meter and the budget.
   */
  free(method: string, path: string): boolean
  /** The body of a refusal, in the API's own error shape, so the CLI prints `message`. */
  errorBody(status: number, message: string): string
  /**
   * Arguments that point a CLI reading no base-URL variable at the proxy, by the executable's name (appended
   * to its command, as the Codex hook wiring is).
   */
  agentArgs?(executable: string, proxyUrl: string): string[]
  /** Why the CLI, set up this way, would not talk to the proxy (so it is not started), or null. */
  elsewhere?(env: Readonly<Record<string, string | undefined>>): string | null
}

const anthropic: ApiSpec = {
  defaultUpstream: 'https://api.anthropic.com',
  keyEnv: ['ANTHROPIC_API_KEY'],
  baseUrlEnv: ['ANTHROPIC_BASE_URL'],
  keyHeaders: ['x-api-key', 'authorization'],
  keyQuery: false,
  metered: (method, path) => method === 'POST' && /\/v1\/messages$/.test(path),
  free: (method, path) => method === 'POST' && /\/v1\/messages\/count_tokens$/.test(path),
  errorBody: (status, message) =>
    JSON.stringify({
      type: 'error',
      error: { type: status === 401 ? 'authentication_error' : 'invalid_request_error', message },
    }),
}

const openai: ApiSpec = {
  defaultUpstream: 'https://api.openai.com/v1',
  // Codex reads CODEX_API_KEY in exec mode and OPENAI_API_KEY otherwise.
  keyEnv: ['OPENAI_API_KEY', 'CODEX_API_KEY'],
  baseUrlEnv: ['OPENAI_BASE_URL'],
  keyHeaders: ['authorization'],
  keyQuery: false,
  // Codex compacts a long conversation remotely (/responses/compact): a model call too.
  metered: (method, path) =>
    method === 'POST' && /\/(responses|responses\/compact|chat\/completions)$/.test(path),
  free: () => false,
  errorBody: (status, message) =>
    JSON.stringify({
      error: { message, type: status === 401 ? 'invalid_api_key' : 'invalid_request_error', code: null },
    }),
  // Codex 0.169 ignores OPENAI_BASE_URL, and its built-in provider tries a WebSocket first (the proxy speaks
  // HTTP): a provider of proctor's own, chosen with -c, sends Responses requests over HTTP to the proxy.
  agentArgs: (executable, proxyUrl) =>
    /(^|\/)codex$/.test(executable)
      ? [
          ['model_provider', 'proctor'],
          ['model_providers.proctor.name', 'proctor'],
          ['model_providers.proctor.base_url', proxyUrl],
          ['model_providers.proctor.wire_api', 'responses'],
          ['model_providers.proctor.env_key', 'OPENAI_API_KEY'],
        ].flatMap(([key, value]) => ['-c', `${key}=${JSON.stringify(value)}`])
      : [],
}

const gemini: ApiSpec = {
  defaultUpstream: 'https://generativelanguage.googleapis.com',
  // Not GOOGLE_API_KEY: Vertex AI reads it, and Vertex ignores GOOGLE_GEMINI_BASE_URL.
  keyEnv: ['GEMINI_API_KEY'],
  baseUrlEnv: ['GOOGLE_GEMINI_BASE_URL'],
  keyHeaders: ['x-goog-api-key'],
  keyQuery: true,
  metered: (method, path) => method === 'POST' && /:(generateContent|streamGenerateContent)$/.test(path),
  free: (method, path) => method === 'POST' && /:countTokens$/.test(path),
  elsewhere: (env) =>
    /^(true|1)$/i.test(env.GOOGLE_GENAI_USE_VERTEXAI ?? '')
      ? 'Vertex AI (GOOGLE_GENAI_USE_VERTEXAI) is not reached through GOOGLE_GEMINI_BASE_URL'
      : null,
  errorBody: (status, message) =>
    JSON.stringify({
      error: { code: status, message, status: status === 401 ? 'UNAUTHENTICATED' : 'INVALID_ARGUMENT' },
    }),
}

export const API_SPECS: Readonly<Record<ModelApi, ApiSpec>> = { anthropic, openai, gemini }
