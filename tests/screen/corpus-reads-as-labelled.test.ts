/**
 * Every capture of the cross-version corpus (tests/fixtures/claude-corpus/<version>/, written by
 * `npm run capture -- --claude <version>`) reads as the scenario that produced it says — plain
 * and SGR, tmux and pty. The label comes from what the scenario did, never from this reader.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyseScreen, parseAnsi, parsePlain } from '../../io/screen/index.ts';

const CORPUS = fileURLToPath(new URL('../fixtures/claude-corpus/', import.meta.url));

interface Meta {
  version: string;
  backend: 'tmux' | 'pty';
  cols: number;
  rows: number;
  scenario: string;
  expected: { state: string; promptBox?: string };
}

function corpus(): { name: string; base: string; meta: Meta }[] {
  if (!existsSync(CORPUS)) return [];
  const out: { name: string; base: string; meta: Meta }[] = [];
  for (const version of readdirSync(CORPUS).sort()) {
    const dir = join(CORPUS, version);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
      const base = join(dir, file.replace(/\.json$/, ''));
      out.push({ name: `${version}/${file.replace(/\.json$/, '')}`, base, meta: JSON.parse(readFileSync(join(dir, file), 'utf8')) as Meta });
    }
  }
  return out;
}

const CASES = corpus().flatMap((c) => [
  { ...c, format: 'plain' as const },
  { ...c, format: 'ansi' as const },
]);

describe('every corpus capture reads as labelled', () => {
  it('the corpus holds captures of at least six versions', () => {
    expect(new Set(CASES.map((c) => c.meta.version)).size).toBeGreaterThanOrEqual(6);
  });

  it.each(CASES.map((c) => [`${c.name} (${c.format})`, c] as const))('%s', (_name, c) => {
    const text = readFileSync(`${c.base}${c.format === 'ansi' ? '.ansi.txt' : '.txt'}`, 'utf8');
    const opts = { cols: c.meta.cols, rows: c.meta.rows };
    const screen = c.format === 'ansi' ? parseAnsi(text, opts) : parsePlain(text, opts);
    // the general reader, and the profile a worker gets when its version was recorded at dispatch
    for (const agent of ['claude', `claude@${c.meta.version}`]) {
      const reading = analyseScreen(screen, agent);
      expect(reading.state, agent).toBe(c.meta.expected.state);
      if (c.meta.expected.promptBox !== undefined) expect(reading.promptBox, agent).toBe(c.meta.expected.promptBox);
    }
  });
});
