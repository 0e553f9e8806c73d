/** What dispatch copied into the worker's folder from `--read-path`, so the person is told (never a silent copy). */
import { dirname } from 'node:path';
import { validateReadPaths } from '../../io/brief/index.ts';
import { copyPath } from '../../io/brief/brief-compose.ts';

export function readFirstCopies(briefPath: string, readPaths: unknown): { source: string; copy: string }[] {
  if (!Array.isArray(readPaths) || readPaths.length === 0) return [];
  return validateReadPaths(readPaths as string[]).map((f) => ({ source: f.source, copy: copyPath(dirname(briefPath), f.leaf) }));
}
