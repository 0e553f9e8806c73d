/**
 * `hand status`'s witness columns as text: token usage from the worker's transcript ("in/out",
 * k and M for thousands and millions) and a dispute between screen and hooks ("screen≠hook").
 */
type Row = Record<string, unknown>;

const short = (n: number): string => (n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : String(n));

export function tokensText(t: unknown): string | null {
  if (!t || typeof t !== 'object') return null;
  const u = t as { input?: number; output?: number; cacheRead?: number; cacheCreation?: number; costUSD?: number | null };
  const input = (u.input ?? 0) + (u.cacheRead ?? 0) + (u.cacheCreation ?? 0);
  return `${short(input)}/${short(u.output ?? 0)}${typeof u.costUSD === 'number' ? ` $${u.costUSD.toFixed(2)}` : ''}`;
}

export function withWitnessText(rows: Row[]): Row[] {
  return rows.map((r) => {
    const d = r.disputed as { screen?: string; hook?: string } | null | undefined;
    return { ...r, tokens: tokensText(r.tokens), disputed: d ? `${d.screen}≠${d.hook}` : null };
  });
}
