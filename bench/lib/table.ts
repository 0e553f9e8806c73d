/** The results as a Markdown table (printed by run.ts, pasted into docs/benchmarks.md). */
import type { BenchResult } from '../types.ts';

function verdict(r: BenchResult): string {
  if (r.target === null) return '';
  // rates (readings/s) must reach the target; everything else must stay under it
  const higherIsBetter = r.unit.endsWith('/s');
  const ok = higherIsBetter ? r.p95 >= r.target : (r.name.startsWith('CLI round trip') ? r.p50 : r.p95) <= r.target;
  return ok ? 'met' : 'MISSED';
}

export function formatTable(results: BenchResult[]): string {
  const lines = ['| figure | unit | n | p50 | p95 | target | |', '|---|---|--:|--:|--:|--:|---|'];
  for (const r of results) lines.push(`| ${r.name} | ${r.unit} | ${r.n} | ${r.p50} | ${r.p95} | ${r.target ?? '—'} | ${verdict(r)} |`);
  return lines.join('\n');
}
