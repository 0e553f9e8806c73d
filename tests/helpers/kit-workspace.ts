/**
 * A workspace made by the real `hand init` in a temp directory, and a reader of its files with
 * whitespace folded, for tests of what the kit tells the Hand.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { makeTempDir } from './temp.ts';
import { HAND_BIN, runProcess } from './hand-process.ts';

export async function initKit(label: string): Promise<{ ws: string; read(file: string): string; cleanup(): void }> {
  const tmp = makeTempDir(label);
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(tmp.path, 'home'), HAND_HOME: join(tmp.path, 'state') };
  const ws = join(tmp.path, 'ws');
  const r = await runProcess([process.execPath, HAND_BIN, 'init', ws], env, 30_000);
  expect(r.code, r.stderr).toBe(0);
  return { ws, read: (f) => readFileSync(join(ws, f), 'utf8').replace(/\s+/g, ' '), cleanup: tmp.cleanup };
}
