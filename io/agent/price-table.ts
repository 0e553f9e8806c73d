/**
 * What a million tokens cost, per model: the one place kingshand keeps prices (issue 41 item 4).
 * Each row names the page it was read from and when. A model that is not here has no price:
 * its tokens are shown and its cost is "unknown", never a guess from a neighbour (a price table
 * that guesses is how a dashboard shows a wrong bill without saying so).
 *
 * Not modelled, said here so a figure is read for what it is: batch discounts (workers do not
 * batch), long-prompt price bands (Gemini over 200K tokens, Sonnet 4.5's over 200K), fast modes
 * and regional uplifts. No Gemini model is priced yet: no price page of Google's could be read
 * when this table was (its workers' tokens are shown, their cost unknown). A cache write of Claude's 1-hour lifetime is priced at its own rate when
 * the session record tells 1-hour writes apart; otherwise every write is priced at the 5-minute one.
 */

export interface ModelPrice {
  /** USD per million tokens. */
  input: number;
  output: number;
  cacheRead: number;
  /** 5-minute cache write (Anthropic); providers without a separate write price repeat input. */
  cacheWrite: number;
  /** 1-hour cache write, where the provider has one. */
  cacheWrite1h?: number;
  source: string;
  /** When the source was read (YYYY-MM-DD). */
  read: string;
}

const ANTHROPIC = 'https://platform.claude.com/docs/en/about-claude/pricing';
const OPUS_5_5 = 'https://platform.claude.com/docs/en/models/opus-5-5/overview';
const OPUS_5 = 'https://platform.claude.com/docs/en/models/opus-5/overview';
const GPT_5_CODEX = 'https://developers.openai.com/api/docs/models/gpt-5-codex';
const READ = '2026-12-06';

/** The table: model id → price. Ids as the agents record them (a dated or `[1m]` suffix of an id here finds it). */
export const PRICE_TABLE: Readonly<Record<string, ModelPrice>> = {
  'claude-opus-5-5': { input: 4, output: 20, cacheRead: 0.2, cacheWrite: 5, cacheWrite1h: 8, source: OPUS_5_5, read: READ },
  'claude-opus-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25, cacheWrite1h: 10, source: OPUS_5, read: READ },
  'claude-opus-4-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25, cacheWrite1h: 10, source: ANTHROPIC, read: READ },
  'claude-opus-4-1': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75, cacheWrite1h: 30, source: ANTHROPIC, read: READ },
  'claude-opus-4': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75, cacheWrite1h: 30, source: ANTHROPIC, read: READ },
  'claude-sonnet-4': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, cacheWrite1h: 6, source: ANTHROPIC, read: READ },
  'claude-3-7-sonnet': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, cacheWrite1h: 6, source: ANTHROPIC, read: READ },
  'claude-3-5-haiku': { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1, cacheWrite1h: 1.6, source: ANTHROPIC, read: READ },
  'gpt-5-codex': { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 1.25, source: GPT_5_CODEX, read: READ },
  'gpt-5': { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 1.25, source: GPT_5_CODEX, read: READ },
};

/** The price of `model`: its own row, or the row its id extends by a date (`-20251101`) or a context mark (`[1m]`). */
export function priceOf(model: string): ModelPrice | null {
  const own = Object.hasOwn(PRICE_TABLE, model) ? PRICE_TABLE[model]! : null;
  if (own) return own;
  const base = model.replace(/\[[^\]]*\]$/, '').replace(/-\d{8}$/, '');
  return base !== model && Object.hasOwn(PRICE_TABLE, base) ? PRICE_TABLE[base]! : null;
}

/** USD for counts of one model at its price. */
export function costOf(p: ModelPrice, c: { input: number; output: number; cacheRead: number; cacheWrite: number; cacheWrite1h?: number }): number {
  const long = Math.min(c.cacheWrite1h ?? 0, c.cacheWrite);
  return (c.input * p.input + c.output * p.output + c.cacheRead * p.cacheRead + (c.cacheWrite - long) * p.cacheWrite + long * (p.cacheWrite1h ?? p.cacheWrite)) / 1_000_000;
}
