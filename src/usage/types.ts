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
  /**
   * Every prompt token, those read from or written to the cache included: OpenAI's input_tokens, Gemini's
   * promptTokenCount, Anthropic's input_tokens + cache_read_input_tokens + cache_creation_input_tokens. The
   * pricer (prices.ts) charges input_tokens - cached_input_tokens - cache_write_input_tokens at the input price.
   */
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
  /**
   * Input tokens written to the provider's prompt cache (Anthropic's cache_creation_input_tokens), part of
   * input_tokens like cached_input_tokens: they cost more than plain input. Absent: none.
   */
  cache_write_input_tokens?: number
  /**
   * Tokens the source counted without saying which were input and which output (Codex's "tokens used N":
   * input not read from the cache plus output); input_tokens and output_tokens leave them out. A sample
   * with any has no price.
   */
  unsplit_tokens?: number
  /** How many model requests the sample stands for (a CLI's summary covers many); absent: 1. */
  requests?: number
  /** What the agent CLI itself said the usage cost (Claude Code's costUSD), used when no price is configured. */
  reported_cost_usd?: number
  /**
   * Some of the counts are the proxy's estimate: the agent hung up on the answer and its final usage could
   * not be read (src/proxy/usage-reader.ts finishCut). Absent: as the API reported them.
   */
  estimated?: true
}

/** USD for one sample, or null when the model has no known price. */
export type Pricer = (sample: UsageSample) => number | null

export interface UsageTotals {
  requests: number
  input_tokens: number
  output_tokens: number
  cached_input_tokens: number
  /** Every token counted: input + output + the unsplit ones (UsageSample.unsplit_tokens). */
  tokens: number
  /** An estimate from the price table; null when any request's model had no known price. */
  cost_usd: number | null
}
