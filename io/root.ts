/**
 * The kingshand checkout or install this code runs from. Found by walking up to our own
 * package.json, so the same code works from the TypeScript sources and from the bundle in dist/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'kingshand') return dir;
      } catch {
        // not ours; keep walking
      }
    }
    if (dirname(dir) === dir) throw new Error(`kingshand: cannot find its package.json above ${start}`);
  }
}

export const KINGSHAND_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
