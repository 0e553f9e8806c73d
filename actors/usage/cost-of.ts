/**
 * Tokens into a cost at the price table (io/agent/price-table.ts): per model, summed. A model the
 * table has no price for keeps its tokens and says its cost is unknown (`unpriced`): the total is
 * then the priced part only, and every face says so — never a guess from a neighbouring model.
 */
import type { Cost, CostLine } from '../../contract/methods.ts';
import { costOf, priceOf } from '../../io/agent/price-table.ts';
import type { LedgerCounts } from '../../persistence/work/session-store.ts';

type Row = LedgerCounts & { model: string };

export function costOfRows(rows: readonly Row[]): Cost {
  const byModel = new Map<string, Row>();
  for (const r of rows) {
    const m = byModel.get(r.model);
    if (!m) byModel.set(r.model, { ...r });
    else for (const k of ['input', 'output', 'cacheRead', 'cacheWrite', 'cacheWrite1h', 'messages'] as const) m[k] += r[k];
  }
  const lines: CostLine[] = [...byModel.values()].map((r) => {
    const p = priceOf(r.model);
    return { model: r.model, input: r.input, output: r.output, cacheRead: r.cacheRead, cacheWrite: r.cacheWrite, messages: r.messages, usd: p ? costOf(p, r) : null };
  });
  const priced = lines.filter((l) => l.usd !== null);
  const sum = (k: 'input' | 'output' | 'cacheRead' | 'cacheWrite' | 'messages') => lines.reduce((n, l) => n + l[k], 0);
  return {
    input: sum('input'), output: sum('output'), cacheRead: sum('cacheRead'), cacheWrite: sum('cacheWrite'), messages: sum('messages'),
    usd: priced.length ? priced.reduce((n, l) => n + l.usd!, 0) : null,
    unpriced: lines.filter((l) => l.usd === null).map((l) => l.model),
    byModel: lines,
  };
}

/** Today's date in the daemon's time zone (YYYY-MM-DD): what a daily budget counts against. */
export function today(now = Date.now()): string {
  const d = new Date(now);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
