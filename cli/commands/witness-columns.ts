/**
 * `hand status`'s witness columns as text: token usage from the worker's transcript ("in/out",
 * k and M for thousands and millions) and a dispute between screen and hooks ("screen≠hook").
 */
import { backgroundWords } from '../../contract/methods/fleet.ts';
import type { TokenUsage, WorkerStatus } from '../../contract/methods.ts';

const short = (n: number): string => (n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(n));

export function tokensText(u: TokenUsage | null): string | null {
  if (!u) return null;
  const input = u.input + u.cacheRead + u.cacheCreation;
  return `${short(input)}/${short(u.output)}${typeof u.costUSD === 'number' ? ` $${u.costUSD.toFixed(2)}` : ''}`;
}

export function withWitnessText(rows: WorkerStatus[]): (Omit<WorkerStatus, 'tokens' | 'disputed' | 'state'> & { state: string; tokens: string | null; disputed: string | null })[] {
  return rows.map((r) => {
    const d = r.disputed;
    // Background work still running after the turn is said in the state column (issue 43).
    const state = r.background ? backgroundWords(r.background) : r.state;
    return { ...r, state, tokens: tokensText(r.tokens), disputed: d ? `${d.screen}≠${d.hook}` : null };
  });
}
