/**
 * The suite's report says how busy the machine's cores were over the run (tests/reporters/
 * suite-budget.ts): a run over its budget with idle cores waited on something, one without was
 * short of CPU. Read from /proc/stat, the whole machine's, so other work beside the suite shows.
 */
import { describe, expect, it } from 'vitest';
import { cpuLine, cpuTicks } from './suite-budget.ts';

describe("the suite's report says how busy the cores were", () => {
  it('busy and idle CPU-seconds over the run, the host\'s share when it took one', () => {
    const from = { busy: 10_000, idle: 5_000, steal: 0 };
    expect(cpuLine(from, { busy: 72_200, idle: 9_800, steal: 0 })).toBe("the machine's cores over the run: 93 % busy (622 CPU-s, all of the machine's work), 48 CPU-s idle");
    expect(cpuLine(from, { busy: 72_200, idle: 9_800, steal: 300 })).toBe("the machine's cores over the run: 92 % busy (622 CPU-s, all of the machine's work), 48 CPU-s idle, 3 CPU-s taken by the host");
  });

  it('says nothing where it cannot read the machine', () => {
    expect(cpuLine(null, { busy: 1, idle: 1, steal: 0 })).toBeNull();
    expect(cpuLine({ busy: 1, idle: 1, steal: 0 }, null)).toBeNull();
    expect(cpuLine({ busy: 1, idle: 1, steal: 0 }, { busy: 1, idle: 1, steal: 0 })).toBeNull();
  });

  it.runIf(process.platform === 'linux')('reads this machine: its counters only grow', async () => {
    const a = cpuTicks()!;
    let x = 0;
    for (let i = 0; i < 5e6; i++) x += i % 7;
    expect(x).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 30));
    const b = cpuTicks()!;
    expect(b.busy + b.idle).toBeGreaterThanOrEqual(a.busy + a.idle);
    expect(b.busy).toBeGreaterThanOrEqual(a.busy);
    expect(a.busy).toBeGreaterThan(0);
  });
});
