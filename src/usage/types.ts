// What a session spent on model APIs: one sample per model request, from the API's own usage fields (seen by
// the metering proxy) or from what an agent CLI printed about itself. The report's usage summary, the budget
// and every rendering are computed from these samples; nothing else counts tokens.

export type ModelApi = 'anthropic' | 'openai' | 'gemini'

export interface UsageSample {
  api: ModelApi
  /** The model the request named (or the response reported), as given. */
  model: string
  /** The stop-hook round the request was made in (1-based). */
  round: number
  input_tokens: number
  output_tokens: number
  /** Input tokens read from the provider's prompt cache (included in input_tokens where the API says so). */
  cached_input_tokens: number
  /** 'proxy': the API's usage fields seen on the wire; 'cli': what the agent CLI reported about itself. */
  source: 'proxy' | 'cli'
  /** The upstream HTTP status (0 when the request never got an answer). */
  status: number
  /** ms since the session started. */
  at: number
}

/** USD for one sample, or null when the model has no known price. */
export type Pricer = (sample: UsageSample) => number | null

export interface UsageTotals {
  requests: number
  input_tokens: number
  output_tokens: number
  cached_input_tokens: number
  /** An estimate from the price table; null when any request's model had no known price. */
  cost_usd: number | null
}
