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
    return rows.map((r) => r.spec);
  }
}
