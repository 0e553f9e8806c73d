/**
 * Prints the suite's wall time against its budget and the ten slowest files at the end of every
 * run (issue 20: the six-minute budget must be visible in every CI log, and a file that creeps up
 * must be named). Wall time is measured from the reporter's init to the end of the run, so it is
 * what a person waits for, not the sum of the files' durations (two workers run side by side).
 */
import { readFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';
import { SLOW_FILES } from '../slow-files.ts';

/** The whole suite's budget on the 2-core machine (DEVELOPERS.md: under 6 minutes). */
export const SUITE_BUDGET_MS = 6 * 60_000;
/** No file may need more than this alone (issue 20). */
export const FILE_BUDGET_MS = 60_000;

const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The machine's CPU time so far, in clock ticks (Linux's /proc/stat; null elsewhere). */
export interface CpuTicks {
  busy: number;
  idle: number;
  steal: number;
}

export function cpuTicks(): CpuTicks | null {
  try {
    // cpu  user nice system idle iowait irq softirq steal …
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    if (f.length < 8 || f.some((n) => !Number.isFinite(n))) return null;
    return { busy: f[0]! + f[1]! + f[2]! + f[5]! + f[6]!, idle: f[3]! + f[4]!, steal: f[7]! };
  } catch {
    return null;
  }
}

/**
 * How busy the machine's cores were over the run: a run over budget with idle cores waited on
 * something; one with none was short of CPU, its own or another's (the machine's whole CPU is
 * counted, so other work beside the suite shows here too). Ticks are USER_HZ, 100 a second.
 */
export function cpuLine(from: CpuTicks | null, to: CpuTicks | null): string | null {
  if (!from || !to) return null;
  const busy = (to.busy - from.busy) / 100;
  const idle = (to.idle - from.idle) / 100;
  const steal = (to.steal - from.steal) / 100;
  const all = busy + idle + steal;
  if (all <= 0) return null;
  return `the machine's cores over the run: ${Math.round((busy / all) * 100)} % busy (${busy.toFixed(0)} CPU-s, all of the machine's work), ${idle.toFixed(0)} CPU-s idle${steal >= 1 ? `, ${steal.toFixed(0)} CPU-s taken by the host` : ''}`;
}

export default class SuiteBudgetReporter implements Reporter {
  private startedAt = 0;
  private cpuAtStart: CpuTicks | null = null;

  onInit(): void {
    this.startedAt = performance.now();
    this.cpuAtStart = cpuTicks();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const wall = performance.now() - this.startedAt;
    const rows = modules
      .map((m) => ({ file: m.relativeModuleId, ms: m.diagnostic().duration, tests: [...m.children.allTests()].length }))
      .sort((a, b) => b.ms - a.ms);
    const tests = rows.reduce((n, r) => n + r.tests, 0);
    const out: string[] = [''];
    out.push(`suite wall time ${secs(wall)} (budget ${secs(SUITE_BUDGET_MS)}) · ${rows.length} files · ${tests} tests`);
    const cpu = cpuLine(this.cpuAtStart, cpuTicks());
    if (cpu) out.push(cpu);
    out.push('ten slowest files:');
    for (const r of rows.slice(0, 10)) out.push(`  ${secs(r.ms).padStart(8)}  ${r.file}${r.ms > FILE_BUDGET_MS ? '  (over the 60 s per-file budget)' : ''}`);
    const unlisted = rows.filter((r) => r.ms >= 5_000 && SLOW_FILES[r.file] === undefined);
    if (unlisted.length > 0) {
      out.push('slow files missing from tests/slow-files.ts (a fresh clone would start them late):');
      for (const r of unlisted) out.push(`  '${r.file}': ${Math.round(r.ms / 1000)},`);
    }
    if (wall > SUITE_BUDGET_MS) out.push(`the suite took longer than its ${secs(SUITE_BUDGET_MS)} budget`);
    process.stdout.write(`${out.join('\n')}\n`);
  }
}
