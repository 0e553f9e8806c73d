/** Temp directories for the agent-setup tests, removed after each test. */
import { afterEach } from 'vitest';
import { makeTempDir } from '../helpers/temp.ts';

export function scratchDirs(label: string): () => string {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    while (cleanups.length) cleanups.pop()!();
  });
  return () => {
    const t = makeTempDir(label);
    cleanups.push(t.cleanup);
    return t.path;
  };
}
