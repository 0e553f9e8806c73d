/**
 * How fast one screen becomes a ScreenReading: parse + analyse of a 120x40 screen, the work
 * done on every terminal update of every worker. Aim: >= 20,000 readings/s (issue 2).
 * Run alone: `npx tsx bench/screen-analysis.ts`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analyseScreen, parseAnsi, parsePlain } from '../io/screen/index.ts';
import type { BenchResult } from './types.ts';

const TARGET_PER_SECOND = 20_000;
const WARMUP = 2_000;
const SAMPLES = 20_000;
const BATCH = 500;

const FIXTURE = new URL('../tests/fixtures/claude-code/2.1.332/05c-working-tool-running', import.meta.url);

function fixture(ansi: boolean): string {
  return readFileSync(fileURLToPath(`${FIXTURE.href}${ansi ? '.ansi.txt' : '.txt'}`), 'utf8');
}

/** A worst case: all 40 rows in use, transcript rows filled to 120 columns, colours every word. */
function denseAnsi(): string {
  const rows: string[] = [];
  for (let r = 0; r < 34; r++) {
    const words: string[] = [];
    let width = 0;
    for (let w = 0; width < 112; w++) {
      const word = `step${r * 13 + w}/300`;
      words.push(`\x1b[38;5;${(r + w) % 255}m${word}\x1b[39m`);
      width += word.length + 1;
    }
    rows.push(`  ${words.join(' ')}`);
  }
  rows.push('\x1b[38;5;174m✻\x1b[39m \x1b[38;5;174mGalloping… \x1b[38;5;246m(1m 23s · ↓ 1.2k tokens)\x1b[39m');
  rows.push('─'.repeat(120), '❯\u00A0\x1b[7m \x1b[0m', '─'.repeat(120));
  rows.push('  \x1b[38;5;246m⏸ manual mode on · esc to interrupt · ← for agents\x1b[39m');
  rows.push('');
  return `${rows.join('\n')}\n`;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/**
 * Times `read` SAMPLES times: per-reading wall-clock µs (p50/p95), and readings per CPU-second
 * over batches of BATCH. The rate is taken on this process's CPU time because the machine is
 * shared: wall-clock batch rates swing with whatever else runs, the CPU cost does not.
 */
function measure(label: string, read: () => unknown, target: number | null = TARGET_PER_SECOND): BenchResult[] {
  for (let i = 0; i < WARMUP; i++) read();
  const micros: number[] = [];
  const rates: number[] = [];
  for (let b = 0; b < SAMPLES / BATCH; b++) {
    const cpuStart = process.cpuUsage();
    for (let i = 0; i < BATCH; i++) {
      const t0 = process.hrtime.bigint();
      read();
      micros.push(Number(process.hrtime.bigint() - t0) / 1_000);
    }
    const cpu = process.cpuUsage(cpuStart);
    rates.push(BATCH / ((cpu.user + cpu.system) / 1e6));
  }
  micros.sort((x, y) => x - y);
  rates.sort((x, y) => x - y);
  return [
    {
      name: `screen-analysis ${label}: readings per second`,
      unit: 'readings/s',
      n: rates.length,
      p50: Math.round(percentile(rates, 50)),
      // the slow tail: 95% of batches ran at least this fast
      p95: Math.round(percentile(rates, 5)),
      target,
      note: `parse + analyse per CPU-second, batches of ${BATCH}; p95 is the 5th-percentile batch rate (slow tail)`,
    },
    {
      name: `screen-analysis ${label}: time per reading`,
      unit: 'µs',
      n: micros.length,
      p50: round(percentile(micros, 50), 1),
      p95: round(percentile(micros, 95), 1),
      target: target === null ? null : round(1e6 / target, 1),
    },
  ];
}

export async function run(): Promise<BenchResult[]> {
  const plain = fixture(false);
  const ansi = fixture(true);
  const dense = denseAnsi();
  const opts = { cols: 120, rows: 40 };
  return [
    ...measure('plain 120x40 (working capture)', () => analyseScreen(parsePlain(plain, opts))),
    ...measure('ansi 120x40 (working capture)', () => analyseScreen(parseAnsi(ansi, opts))),
    // a stress case, not the target: real captures colour a few runs per row, not every word
    ...measure('ansi 120x40 stress (every row full, colour per word)', () => analyseScreen(parseAnsi(dense, opts)), null),
  ];
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const r of await run()) {
    const target = r.target === null ? '' : `  (target ${r.target})`;
    console.log(`${r.name}: p50 ${r.p50} ${r.unit}, p95 ${r.p95} ${r.unit}, n=${r.n}${target}`);
  }
}
