/**
 * The order the suite's files start in (files go to the workers in this order as they free up).
 *
 * Two things decide the suite's wall time on two cores. The tail: the run ends when its last file
 * does, so a long file must not start late (issue 20) — the longest files go first. And the load:
 * the files that run real agent binaries, a browser or an sshd keep both cores busy by themselves,
 * while most of the others spend their time waiting on a threshold, a screen or a process. Started
 * longest-first, the heavy files all ran together at the head of the run (the machine saturated,
 * OpenCode's calibration past its one-minute bound once six files ran at once) and the light ones
 * together after them (10–34 % of the cores idle in each ten seconds of the run's second half).
 *
 * So the order is planned: the files are laid out on the workers as vitest will take them (each
 * free worker takes the next file), with each file's expected time, and a free worker takes the
 * longest heavy file while the heavy files running leave it a place under `cap`, else the longest
 * light one. `cap` is two thirds of the workers (four of six). Fewer stretched the heavy files to
 * the run's very end, where one that ran long (a heavy file's time varies up to threefold between
 * runs: OpenCode's stranger test 17–54 s) finished alone with the cores idle; more stacked them at
 * the head again.
 * With four of six they end around four fifths into the run, and its last part is left to light
 * files, short and many. Two files of one heavy agent (OpenCode, Qwen Code, Gemini CLI, Codex)
 * never run side by side in the plan while another heavy file could go instead. An OpenCode file
 * takes two of the four places: while its agent runs, its terminal UI and its server thread keep
 * nearly both cores busy by themselves (~1.8 cores, sampled each second), and with three other
 * heavy files beside it on a loaded machine its flow through `hand` ran past its one-minute bound.
 *
 * A file's expected time is what vitest's cache recorded for it on this machine, else its line in
 * tests/slow-files.ts, else nothing. A file that failed last time gets no place of its own (vitest
 * starts those first): two OpenCode files that failed on load, started first together, failed
 * again beside each other.
 */
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SLOW_FILES } from './slow-files.ts';

export default class PlannedSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rows = files.map((spec) => {
      const file = relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`);
      const hinted = SLOW_FILES[file];
      let size = 0;
      try {
        size = statSync(spec.moduleId).size;
      } catch {
        // a file removed since it was listed: vitest reports it
      }
      return {
        spec,
        expectedMs: cached?.duration ?? (hinted === undefined ? 0 : hinted * 1000),
        size,
        heavy: isHeavy(file),
        family: familyOf(file),
      };
    });
    // Longest first; ties go to the larger file, as vitest's own order.
    rows.sort((a, b) => b.expectedMs - a.expectedMs || b.size - a.size);
    return planOrder(rows, this.ctx.config.maxWorkers).order.map((r) => r.spec);
  }
}

/**
 * Files that run a real agent binary, a browser or an sshd: what keeps a core busy for most of the
 * file's time (an agent's start alone is 1–5 CPU-s). Named by where they live, so a new file there
 * is heavy without a list to keep.
 */
const HEAVY: readonly RegExp[] = [
  /^tests\/calibration\//,
  /^tests\/claude-e2e\//,
  /^tests\/claude-real\//,
  /^tests\/agents\/(opencode|qwen|gemini|codex)\//,
  /^tests\/isolation\/.*-is-a-stranger\.test\.ts$/,
  /^tests\/ssh\//,
  /^tests\/terminal\/ssh-/,
  /chromium/,
];

export function isHeavy(file: string): boolean {
  return HEAVY.some((re) => re.test(file));
}

/** The heavy agents whose files should not run side by side (an OpenCode start alone is ~4.5 CPU-s). */
const FAMILIES: readonly [RegExp, string][] = [[/opencode/i, 'opencode'], [/qwen/i, 'qwen'], [/gemini/i, 'gemini'], [/codex/i, 'codex']];

export function familyOf(file: string): string | null {
  return FAMILIES.find(([re]) => re.test(file))?.[1] ?? null;
}

/**
 * How many of the heavy places a file takes: an OpenCode file two (its agent alone keeps ~1.8
 * cores busy while it runs: the terminal UI's thread and its server's), another heavy file one, a
 * light file none.
 */
export function weightOf(row: Pick<PlanRow, 'heavy' | 'family'>): number {
  if (!row.heavy) return 0;
  return row.family === 'opencode' ? 2 : 1;
}

export interface PlanRow {
  expectedMs: number;
  heavy: boolean;
  family: string | null;
}

/**
 * `rows` longest first. Lays them out on `width` workers, each free worker taking the next file:
 * the longest heavy file whose weight still fits under `cap` beside the heavy ones running (and
 * none of its family runs), else the longest light one; when one kind is used up, the other.
 * Returns the order taken, when the plan ends and when its last heavy file does.
 */
export function layOut<T extends PlanRow>(rows: readonly T[], width: number, cap: number): { order: T[]; endsAt: number; heavyEndsAt: number } {
  const left = [...rows];
  const order: T[] = [];
  const running: { endsAt: number; row: T }[] = [];
  const free = Array.from({ length: Math.max(1, width) }, () => 0);
  let endsAt = 0;
  let heavyEndsAt = 0;
  while (left.length > 0) {
    // the worker that frees up first takes the next file
    const w = free.indexOf(Math.min(...free));
    const now = free[w]!;
    for (let i = running.length - 1; i >= 0; i--) if (running[i]!.endsAt <= now) running.splice(i, 1);
    const heavyNow = running.filter((r) => r.row.heavy);
    const load = heavyNow.reduce((n, r) => n + weightOf(r.row), 0);
    const familyRuns = (r: T) => r.family !== null && heavyNow.some((x) => x.row.family === r.family);
    const fitIdx = left.findIndex((r) => r.heavy && !familyRuns(r) && load + Math.min(weightOf(r), cap) <= cap);
    const heavyIdx = left.findIndex((r) => r.heavy && !familyRuns(r));
    const lightIdx = left.findIndex((r) => !r.heavy);
    let i: number;
    if (fitIdx !== -1) i = fitIdx;
    else if (lightIdx !== -1) i = lightIdx;
    else i = heavyIdx !== -1 ? heavyIdx : 0;
    const row = left.splice(i, 1)[0]!;
    order.push(row);
    // a file with no expected time still takes a moment: files then keep their order
    const end = now + Math.max(row.expectedMs, 1);
    running.push({ endsAt: end, row });
    free[w] = end;
    endsAt = Math.max(endsAt, end);
    if (row.heavy) heavyEndsAt = Math.max(heavyEndsAt, end);
  }
  return { order, endsAt, heavyEndsAt };
}

/** The share of the workers that may run heavy files at once (six workers: four). */
export const HEAVY_SHARE = 2 / 3;

export function heavyCap(width: number): number {
  return Math.max(1, Math.ceil(Math.max(1, width) * HEAVY_SHARE));
}

/** The suite's order for `width` workers: `rows` (longest first) laid out with heavyCap(width). */
export function planOrder<T extends PlanRow>(rows: readonly T[], width: number): { order: T[]; cap: number; endsAt: number; heavyEndsAt: number } {
  const w = Math.max(1, width);
  const cap = heavyCap(w);
  return { ...layOut(rows, w, cap), cap };
}
