/** How every face says a cost and a worker's tokens (status, the digest, survey, the page, hand cost). */
import type { Cost } from './methods.ts';

/** `$0.0123` (four decimals below a dollar, two above), with what is unknown said. */
export function costText(c: Pick<Cost, 'usd' | 'unpriced'> | null): string {
  if (!c) return '—';
  const usd = c.usd === null ? null : c.usd < 1 ? `$${c.usd.toFixed(4)}` : `$${c.usd.toFixed(2)}`;
  if (c.unpriced.length === 0) return usd ?? '$0';
  const unknown = `unknown for ${c.unpriced.join(', ')}`;
  return usd ? `${usd} + ${unknown}` : unknown;
}

/** `1.2k in · 340 out · 12k cache` — a worker's tokens in one short phrase. */
export function tokensText(c: Pick<Cost, 'input' | 'output' | 'cacheRead' | 'cacheWrite'>): string {
  const k = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));
  const cache = c.cacheRead + c.cacheWrite;
  return `${k(c.input)} in · ${k(c.output)} out${cache ? ` · ${k(cache)} cache` : ''}`;
}
