// The exact values proctor knows to be secret (the GitHub token, the runner's tokens, model API keys in
// its environment, values it masks in the log), recognised in file content as they are, URL-encoded or
// base64-encoded (standard and URL-safe, at any offset inside a longer base64 text), and in parts: a
// token split over two files still leaves one part of at least half its length in one of them.
import { secretForms, type SecretForm } from '../../util/secret-forms.js'
import type { ContentFinding, KnownSecret } from './types.js'

/** Values registered by the entry point (the action's withheld tokens); read by every scanner made later. */
const registered = new Map<string, string>()

/** Too short to be told from ordinary text: never a known secret. */
const MIN_SECRET_CHARS = 12

/** Length of the pieces of a known value looked for (WINDOW), and the stride the text is sampled at. */
const WINDOW = 12
const STRIDE = 6

/**
 * Environment variables whose value is a credential: the runner's and GitHub's tokens and the model
 * providers' API keys (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, ...).
 */
const SECRET_NAME =
  /(?:^|_)(?:TOKEN|API_?KEY|SECRET|SECRET_?KEY|ACCESS_?KEY|PASSWORD|AUTH_?TOKEN|PRIVATE_?KEY)(?:$|_)/i

/** Remembers values as secret for every content scan of this process (each under its name). */
export function registerKnownSecrets(values: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value && value.trim().length >= MIN_SECRET_CHARS && !registered.has(value))
      registered.set(value, name)
  }
}

/** The registered values plus the credentials in `env`, each value once. */
export function knownSecrets(env: Record<string, string | undefined> = process.env): KnownSecret[] {
  const byValue = new Map(registered)
  for (const [name, value] of Object.entries(env)) {
    if (!value || value.trim().length < MIN_SECRET_CHARS || byValue.has(value)) continue
    if (SECRET_NAME.test(name)) byValue.set(value, name)
  }
  return [...byValue].map(([value, name]) => ({ name, value }))
}

/** One written form of a known value, under its name. */
interface Form extends SecretForm {
  name: string
}

/** Characters a run of token-like text is made of; a piece of a value is looked for inside such runs. */
const RUN = /[^\s"'`(){}[\]<>,;\\]{12,}/g

/**
 * Finds known values in text. Every WINDOW-character piece of every form is in a set, and the text is
 * sampled every STRIDE characters inside runs of token-like characters: any part of a value of at least
 * WINDOW + STRIDE - 1 characters holds a sampled piece, whatever its offset.
 */
export class KnownValues {
  private readonly pieces = new Map<string, Form>()

  constructor(secrets: readonly KnownSecret[]) {
    for (const secret of secrets) {
      for (const written of secretForms(secret.value)) {
        const form = { ...written, name: secret.name }
        for (let i = 0; i + WINDOW <= form.text.length; i++) {
          const piece = form.text.slice(i, i + WINDOW)
          if (!this.pieces.has(piece)) this.pieces.set(piece, form)
        }
      }
    }
  }

  get empty(): boolean {
    return this.pieces.size === 0
  }

  /** The first known value (or part of one) in `text`, or null. */
  find(text: string): ContentFinding | null {
    if (this.pieces.size === 0) return null
    RUN.lastIndex = 0
    for (let m = RUN.exec(text); m !== null; m = RUN.exec(text)) {
      const run = m[0]
      for (let i = 0; i + WINDOW <= run.length; i += STRIDE) {
        const form = this.pieces.get(run.slice(i, i + WINDOW)) ?? this.tail(run, i)
        if (form) {
          const whole = run.includes(form.text)
          return {
            rule: 'known-value',
            what: `${whole ? 'the value' : 'a part of the value'} of ${form.name}, ${form.how}`,
            line: lineAt(text, m.index),
          }
        }
      }
    }
    return null
  }

  /** The run's last window, so a piece at the very end of a run is sampled too. */
  private tail(run: string, i: number): Form | undefined {
    if (i + WINDOW + STRIDE <= run.length) return undefined
    return this.pieces.get(run.slice(run.length - WINDOW))
  }
}

/** 1-based line of `index` in `text`. */
export function lineAt(text: string, index: number): number {
  let line = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++
  return line
}
