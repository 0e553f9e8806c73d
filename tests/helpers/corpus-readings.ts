/**
 * An agent corpus read against its labels (tests/agents/<agent>/<agent>-corpus-reads-as-labelled):
 * every capture in both formats, the reader's state, prompt box and blocked reason checked against
 * what the scenario did, and a score per version printed once the file's tests end. What else an
 * agent's screens must say (its dialogs' words, its error marks) stays in its own file.
 */
import { readFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';
import { analyseScreen, parseAnsi, parsePlain } from '../../io/screen/index.ts';
import type { Screen, ScreenReading } from '../../io/screen/types.ts';
import { corpusCaptures, type CorpusCapture, type CorpusMeta } from './corpus-files.ts';

export type CorpusCase = CorpusCapture<CorpusMeta> & { format: 'plain' | 'ansi' };

/** Each capture under `dir`, plain and SGR. */
export const corpusCases = (dir: string): CorpusCase[] => corpusCaptures<CorpusMeta>(dir).flatMap((c) => (['plain', 'ansi'] as const).map((format) => ({ ...c, format })));

/** The capture's screen in its format. */
export function screenOf(c: CorpusCase): Screen {
  const text = readFileSync(`${c.base}${c.format === 'ansi' ? '.ansi.txt' : '.txt'}`, 'utf8');
  const opts = { cols: c.meta.cols, rows: c.meta.rows };
  return c.format === 'ansi' ? parseAnsi(text, opts) : parsePlain(text, opts);
}

/** Call once at a file's top: `read` checks one capture with one reader and counts it; the scores are printed after the file. */
export function useCorpusScores(label: string): { read(screen: Screen, c: CorpusCase, agent: string): ScreenReading } {
  const scores = new Map<string, { right: number; total: number }>();
  afterAll(() => {
    const lines = [...scores.entries()].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })).map(([k, s]) => `  ${k.padEnd(12)} ${s.right}/${s.total}`);
    const right = [...scores.values()].reduce((n, s) => n + s.right, 0);
    const total = [...scores.values()].reduce((n, s) => n + s.total, 0);
    console.log([`${label} corpus readings: ${right}/${total} right (plain and SGR)`, 'per version:', ...lines].join('\n'));
  });
  return {
    read(screen, c, agent) {
      const want = c.meta.expected;
      const reading = analyseScreen(screen, agent);
      const right = reading.state === want.state && (want.promptBox === undefined || reading.promptBox === want.promptBox) &&
        (want.state !== 'blocked' || want.reason === undefined || reading.blockedReason === want.reason);
      const s = scores.get(c.meta.version) ?? { right: 0, total: 0 };
      scores.set(c.meta.version, { right: s.right + (right ? 1 : 0), total: s.total + 1 });
      expect(reading.state, agent).toBe(want.state);
      if (want.promptBox !== undefined) expect(reading.promptBox, agent).toBe(want.promptBox);
      if (want.state === 'blocked' && want.reason !== undefined) expect(reading.blockedReason, agent).toBe(want.reason);
      return reading;
    },
  };
}
