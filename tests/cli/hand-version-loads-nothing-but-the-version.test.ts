/**
 * Issue 26 item 4: `hand --version` prints the package's version without loading the bundle or
 * commander (it cost 1.6× Node's own start; the target is 1.3×). The real binary runs under a
 * resolve hook that records every import.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '../helpers/temp.ts';
import { HAND_BIN } from '../helpers/hand-process.ts';
import { importRecorder } from '../helpers/import-recorder.ts';

describe('hand --version loads nothing but the version', () => {
  it('prints package.json\'s version having imported neither the bundle nor commander', () => {
    const tmp = makeTempDir('version-imports');
    try {
      const rec = importRecorder(tmp.path);
      const version = JSON.parse(readFileSync(join(HAND_BIN, '..', '..', 'package.json'), 'utf8')).version as string;
      for (const flag of ['--version', '-V']) {
        const out = execFileSync(process.execPath, [...rec.importFlag, HAND_BIN, flag], { encoding: 'utf8' });
        expect(out).toBe(`${version}\n`);
      }
      const imported = rec.imported();
      expect(imported.filter((s) => s.includes('dist/') || s.includes('main.') || s === 'commander' || s.includes('tsx')), `imports: ${imported.join(', ')}`).toEqual([]);
    } finally {
      tmp.cleanup();
    }
  });
});
