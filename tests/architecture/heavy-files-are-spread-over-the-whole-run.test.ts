/**
 * Rule: the suite's files start in a planned order (tests/sequencer.ts). The longest go first, so
 * none ends the run late (the plan ends within 2 % of longest-first); the heavy ones (a real agent,
 * a browser, an sshd) are spread over the run instead of stacked at its head, taking at most `cap`
 * places at once while a light file could go instead (`cap`: two thirds of the workers; an OpenCode
 * file takes two, its agent keeping nearly both cores busy), and two files of one heavy agent never
 * side by side while another heavy file could go; on a suite shaped like ours they are done before
 * the run's last part, left to light files. Nothing is dropped.
 */
import { describe, expect, it } from 'vitest';
import { familyOf, heavyCap, isHeavy, layOut, planOrder, weightOf, type PlanRow } from '../sequencer.ts';

type Row = PlanRow & { name: string };
const row = (name: string, seconds: number, heavy = false, family: string | null = null): Row => ({ name, expectedMs: seconds * 1000, heavy, family });
const names = (rows: readonly Row[]) => rows.map((r) => r.name);

/** When each file of `order` runs when `width` workers take them in that order. */
function timeline(order: readonly Row[], width: number): { row: Row; start: number; end: number }[] {
  const free = Array.from({ length: width }, () => 0);
  return order.map((r) => {
    const w = free.indexOf(Math.min(...free));
    const start = free[w]!;
    free[w] = start + Math.max(r.expectedMs, 1);
    return { row: r, start, end: free[w]! };
  });
}

// A suite in the shape of ours: a few long heavy files, more long light ones, many short light ones.
const suite: Row[] = [
  row('oc-cal', 54, true, 'opencode'),
  row('e2e-1', 49, true),
  row('ssh-1', 48, true),
  row('oc-worker', 44, true, 'opencode'),
  row('e2e-2', 42, true),
  row('qwen-cal', 37, true, 'qwen'),
  row('gemini-cal', 34, true, 'gemini'),
  row('oc-stranger', 32, true, 'opencode'),
  row('relaunch', 29),
  row('daemon-killed', 28),
  row('tmux-killed', 27),
  row('landing', 26),
  row('resume', 23),
  ...Array.from({ length: 120 }, (_, i) => row(`short-${i}`, 10 - i / 20)),
].sort((a, b) => b.expectedMs - a.expectedMs);

describe('heavy files are spread over the whole run', () => {
  it('nothing is dropped, and the plan ends within 2 % of longest-first with no limit', () => {
    const plan = planOrder(suite, 6);
    expect(new Set(names(plan.order))).toEqual(new Set(names(suite)));
    expect(plan.order).toHaveLength(suite.length);
    expect(plan.endsAt).toBeLessThanOrEqual(1.02 * layOut(suite, 6, 6).endsAt);
    // and it is what the order gives when six workers take it
    expect(Math.max(...timeline(plan.order, 6).map((t) => t.end))).toBe(plan.endsAt);
  });

  it('fewer heavy files at once than workers, while a light one could go instead; none of one family side by side', () => {
    const plan = planOrder(suite, 6);
    expect(plan.cap).toBeLessThan(6);
    const lastLight = Math.max(...timeline(plan.order, 6).filter((t) => !t.row.heavy).map((t) => t.start));
    const runs = timeline(plan.order, 6);
    for (const t of runs) {
      const beside = runs.filter((o) => o !== t && o.row.heavy && o.start <= t.start && o.end > t.start);
      const load = beside.reduce((n, o) => n + weightOf(o.row), 0) + weightOf(t.row);
      if (t.row.heavy && t.start < lastLight) expect(load, `${t.row.name} at ${t.start} ms`).toBeLessThanOrEqual(plan.cap);
      if (t.row.family !== null) expect(beside.filter((o) => o.row.family === t.row.family).map((o) => o.row.name), t.row.name).toEqual([]);
    }
    // longest-first alone would start all six of the longest heavy files together at the head
    expect(names(suite.slice(0, 6)).every((n) => suite.find((r) => r.name === n)!.heavy)).toBe(true);
    expect(plan.order.slice(0, 6).reduce((n, r) => n + weightOf(r), 0)).toBe(plan.cap);
  });

  it('an OpenCode file takes two places: beside it at most two other heavy files, while a light file could go', () => {
    expect([row('x', 1), row('y', 1, true), row('z', 1, true, 'opencode'), row('q', 1, true, 'qwen')].map(weightOf)).toEqual([0, 1, 2, 1]);
    // An OpenCode file and four other heavy ones first in longest-first order, a cap of four: counted
    // by files, the OpenCode file would start beside three heavy ones; counted by places, beside two,
    // and the rest of the head is light.
    const head = [row('oc', 60, true, 'opencode'), row('h1', 59, true), row('h2', 58, true), row('h3', 57, true), row('h4', 56, true), ...Array.from({ length: 30 }, (_, i) => row(`l${i}`, 20 - i / 10))];
    const first = layOut(head, 6, 4).order.slice(0, 6);
    expect(names(first)).toEqual(['oc', 'h1', 'h2', 'l0', 'l1', 'l2']);
    // the rest of the heavy files start as places free up, never above the cap while light files are left
    const runs = timeline(layOut(head, 6, 4).order, 6);
    const lastLight = Math.max(...runs.filter((t) => !t.row.heavy).map((t) => t.start));
    for (const t of runs.filter((x) => x.row.heavy && x.start < lastLight)) {
      const load = runs.filter((o) => o.row.heavy && o.start <= t.start && o.end > t.start).reduce((n, o) => n + weightOf(o.row), 0);
      expect(load, `${t.row.name} at ${t.start} ms`).toBeLessThanOrEqual(4);
    }
    // an OpenCode file never waits for ever: with one worker, or a cap below its weight, it still runs
    expect(names(layOut(head.slice(0, 2), 1, 1).order)).toEqual(['oc', 'h1']);
  });

  it('the heavy files are not stacked at the head, and all are done before the run\'s last part', () => {
    const runs = timeline(planOrder(suite, 6).order, 6);
    const end = Math.max(...runs.map((t) => t.end));
    const heavy = runs.filter((t) => t.row.heavy);
    expect(Math.max(...heavy.map((t) => t.start))).toBeGreaterThan(end / 3);
    expect(Math.max(...heavy.map((t) => t.end))).toBeLessThanOrEqual(0.85 * end);
    // while longest-first alone starts them all in the run's first third
    const stacked = timeline(suite, 6);
    expect(Math.max(...stacked.filter((t) => t.row.heavy).map((t) => t.start))).toBeLessThan(end / 3);
  });

  it('two thirds of the workers at most run heavy files: fewer would leave heavy files running at the end', () => {
    expect([1, 2, 3, 5, 6, 7, 9].map(heavyCap)).toEqual([1, 2, 2, 4, 4, 5, 6]);
    expect(planOrder(suite, 6).cap).toBe(4);
    // with three of six, the heavy files of a suite shaped like ours run to the end of the plan
    const three = layOut(suite, 6, 3);
    const four = layOut(suite, 6, 4);
    expect(three.heavyEndsAt / three.endsAt).toBeGreaterThan(four.heavyEndsAt / four.endsAt);
  });

  it('one worker: the order is longest first', () => {
    expect(names(planOrder(suite, 1).order)).toEqual(names(suite));
  });

  it('only light files, or only heavy ones: longest first, families apart where they can be', () => {
    const light = suite.filter((r) => !r.heavy);
    expect(names(planOrder(light, 6).order)).toEqual(names(light));
    const heavy = [row('a', 30, true, 'opencode'), row('b', 29, true, 'opencode'), row('c', 28, true), row('d', 27, true)];
    expect(names(planOrder(heavy, 2).order)).toEqual(['a', 'c', 'd', 'b']);
  });

  it('the suite\'s own files: a real agent, a browser or an sshd is heavy; the rest light', () => {
    for (const f of [
      'tests/calibration/opencode-is-read-right-in-every-situation-it-has.test.ts',
      'tests/claude-e2e/the-hand-runs-the-whole-workflow.test.ts',
      'tests/claude-real/starts-on-the-idle-box.test.ts',
      'tests/agents/qwen/qwen-worker-through-hand.test.ts',
      'tests/isolation/an-opencode-worker-is-a-stranger.test.ts',
      'tests/ssh/a-far-worker-lives-and-lands-on-its-host.test.ts',
      'tests/terminal/ssh-tmux-host.test.ts',
      'tests/review/review-page-in-chromium.test.ts',
    ]) expect(isHeavy(f), f).toBe(true);
    for (const f of ['tests/relaunch/relaunch.test.ts', 'tests/faults/tmux-server-killed-at-every-worker-state.test.ts', 'tests/screen/dialog.test.ts']) expect(isHeavy(f), f).toBe(false);
    expect(familyOf('tests/agents/opencode/opencode-worker-through-hand.test.ts')).toBe('opencode');
    expect(familyOf('tests/relaunch/relaunch.test.ts')).toBeNull();
  });
});
