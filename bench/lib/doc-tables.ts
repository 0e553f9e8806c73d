/**
 * Prints the Markdown that docs/benchmarks.md keeps from a results file (default
 * bench/results/latest.json): the machine line, the results table, the per-figure notes, and the
 * comparison with other tools' published detection figures (ratios computed, not typed in).
 * Run: `npx tsx bench/lib/doc-tables.ts [results.json]`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchResult } from '../types.ts';
import { formatTable } from './table.ts';

const file = process.argv[2] ?? fileURLToPath(new URL('../results/latest.json', import.meta.url));
const { machine, results } = JSON.parse(readFileSync(file, 'utf8')) as { machine: Record<string, unknown>; results: BenchResult[] };

/** Published figures, as issue 8 states them (its "Why" section). */
const OTHERS: Array<[string, string, number]> = [
  ['herdr (own trial)', '12 s', 12_000],
  ['firstmate (15 s poll)', '15 s', 15_000],
  ['agent-deck (500 ms poll)', '0.5 s', 500],
  ['ccmanager (100 ms poll + 1.5 s debounce)', '1.6 s', 1_600],
];

const ours: Array<[string, BenchResult]> = [];
for (const r of results) {
  const m = /^blocked detection, (.+): menu drawn → (actor blocked|`hand wait --until blocked` exits)$/.exec(r.name);
  if (m) ours.push([`${m[2] === 'actor blocked' ? 'actor' : 'hand wait'}, ${m[1]}`, r]);
  const s = /^fleet scale (\d+) streaming: menu drawn → blocked pushed on the socket$/.exec(r.name);
  if (s && Number(s[1]) >= 50) ours.push([`${s[1]} streaming, tmux`, r]);
}

console.log(`Machine: ${machine.cores} cores (${machine.cpuModel}), Node ${machine.node}, ${machine.platform}; load average ${(machine.loadAverageAtStart as number[]).join(' ')} at start, ${(machine.loadAverageAtEnd as number[]).join(' ')} at end; run took ${machine.durationS} s, started ${machine.startedAt}.\n`);
console.log(formatTable(results).replace(/\| MISSED \|$/gm, '| **missed** |'));
console.log('\nNotes on individual figures:\n');
for (const r of results) if (r.note) console.log(`- *${r.name}*: ${r.note}`);
console.log('\n| tool | figure | ' + ours.map(([k, r]) => `÷ ours: ${k} (p95 ${r.p95} ms)`).join(' | ') + ' |');
console.log('|---|--:|' + ours.map(() => '--:|').join(''));
for (const [tool, shown, ms] of OTHERS) {
  const ratio = (r: BenchResult) => {
    const x = ms / r.p95;
    return x >= 10 ? `${Math.round(x)}×` : `${x.toFixed(x >= 1 ? 1 : 2)}×`;
  };
  console.log(`| ${tool} | ${shown} | ${ours.map(([, r]) => ratio(r)).join(' | ')} |`);
}
