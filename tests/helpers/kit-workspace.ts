/**
 * A workspace made by the real `hand init` in a temp directory, and a reader of its files with
 * whitespace folded, for tests of what the kit tells the Hand.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { makeTempDir } from './temp.ts';
import { HAND_BIN, runProcess } from './hand-process.ts';

export interface Kit {
  ws: string;
  /** A file of the workspace, its whitespace folded. */
  read(file: string): string;
  cleanup(): void;
}

export async function initKit(label: string): Promise<Kit> {
  const tmp = makeTempDir(label);
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(tmp.path, 'home'), HAND_HOME: join(tmp.path, 'state') };
  const ws = join(tmp.path, 'ws');
  const r = await runProcess([process.execPath, HAND_BIN, 'init', ws], env, 30_000);
  expect(r.code, r.stderr).toBe(0);
  return { ws, read: (f) => readFileSync(join(ws, f), 'utf8').replace(/\s+/g, ' '), cleanup: tmp.cleanup };
}

/** Registers the removal of every kit the returned function makes, after each test; call once at the top of a test file. */
export function useKit(): (label: string) => Promise<Kit> {
  const made: Kit[] = [];
  afterEach(() => {
    for (const kit of made.splice(0)) kit.cleanup();
  });
  return async (label) => {
    const kit = await initKit(label);
    made.push(kit);
    return kit;
  };
}
