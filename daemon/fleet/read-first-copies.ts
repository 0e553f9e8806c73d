/** What dispatch copied into the worker's folder from `--read-path`, so the person is told (never a silent copy). */
import { dirname } from 'node:path';
import { validateReadPaths } from '../../io/brief/index.ts';
import { copyPath } from '../../io/brief/brief-compose.ts';

export function readFirstCopies(briefPath: string, readPaths: string[] | undefined): { source: string; copy: string }[] {
  if (!readPaths || readPaths.length === 0) return [];
  return validateReadPaths(readPaths).map((f) => ({ source: f.source, copy: copyPath(dirname(briefPath), f.leaf) }));
}
