/**
 * The temp-dir teardown many test files wrote again (`let tmp; afterEach(() => tmp?.cleanup())`),
 * once: a file calls useTempDirs() at its top and makes as many dirs per test as it needs.
 */
import { afterEach } from 'vitest';
import { makeTempDir } from './temp.ts';

/**
 * Registers the removal of every dir the returned function makes, after each test; call once at
 * the top of a test file. The function makes a fresh dir (see makeTempDir) and gives its path.
 */
export function useTempDirs(): (label?: string) => string {
  const made: Array<{ cleanup(): void }> = [];
  afterEach(() => {
    for (const t of made.splice(0)) t.cleanup();
  });
  return (label) => {
    const t = makeTempDir(label);
    made.push(t);
    return t.path;
  };
}
