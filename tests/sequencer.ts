/**
 * Starts the longest files first, whether or not vitest has a results cache (issue 20: the suite's
 * wall time is the sum of the files over the workers plus the tail, and a long file that starts late
 * is the tail). A file's expected time is what vitest's cache recorded for it on this machine, else
 * its line in tests/slow-files.ts, else nothing; ties go to the larger file, as vitest's own order.
 * Files that failed last time still start first, as with vitest's sequencer.
 */
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { SLOW_FILES } from './slow-files.ts';

export default class LongestFirstSequencer extends BaseSequencer {
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
        failed: cached?.failed === true,
        expectedMs: cached?.duration ?? (hinted === undefined ? 0 : hinted * 1000),
        size,
      };
    });
    rows.sort((a, b) => Number(b.failed) - Number(a.failed) || b.expectedMs - a.expectedMs || b.size - a.size);
    return spreadFamilies(rows.map((r) => ({ spec: r.spec, family: familyOf(relative(root, r.spec.moduleId)) })), this.ctx.config.maxWorkers).map((r) => r.spec);
  }
}

/**
 * The heavy agents whose files should not start side by side: an OpenCode start alone is ~7 CPU-s
 * of its JIT, and three OpenCode files started together at the head of the list (with the Qwen
 * calibration beside them) pushed OpenCode's calibration past its one-minute bound on two cores.
 */
const FAMILIES: readonly [RegExp, string][] = [[/opencode/i, 'opencode'], [/qwen/i, 'qwen'], [/gemini/i, 'gemini'], [/codex/i, 'codex']];

function familyOf(file: string): string | null {
  return FAMILIES.find(([re]) => re.test(file))?.[1] ?? null;
}

/**
 * The list in its order, except that a file of a family with one among the last `width - 1` taken
 * waits for the next file that has none (files go to the workers in this order as they free up, so
 * neighbours run together). Nothing is dropped; a family with nothing else left goes as it comes.
 */
export function spreadFamilies<T extends { family: string | null }>(rows: readonly T[], width: number): T[] {
  const left = [...rows];
  const out: T[] = [];
  const window = Math.max(0, width - 1);
  const near = (f: string | null) => f !== null && window > 0 && out.slice(-window).some((r) => r.family === f);
  while (left.length > 0) {
    const i = left.findIndex((r) => !near(r.family));
    out.push(left.splice(i === -1 ? 0 : i, 1)[0]!);
  }
  return out;
}
