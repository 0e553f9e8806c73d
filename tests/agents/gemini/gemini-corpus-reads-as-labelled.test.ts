/**
 * Every capture of the Gemini CLI corpus (tests/fixtures/gemini-corpus/<version>/, written by
 * `npm run capture -- --agent gemini --version <v>`) reads as the scenario that produced it says,
 * plain and SGR, tmux and pty, with the gemini profile. A blocked screen also quotes its question.
 * The label comes from what the scenario did, never from this reader.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseScreen, parseAnsi, parsePlain } from '../../../io/screen/index.ts';
import { corpusCaptures, type CorpusMeta } from '../../helpers/corpus-files.ts';

const CORPUS = fileURLToPath(new URL('../../fixtures/gemini-corpus/', import.meta.url));

type Meta = CorpusMeta;

const CASES = corpusCaptures<Meta>(CORPUS).flatMap((c) => (['plain', 'ansi'] as const).map((format) => ({ ...c, format })));
const scores = new Map<string, { right: number; total: number }>();

afterAll(() => {
  const lines = [...scores.entries()].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })).map(([k, s]) => `  ${k.padEnd(12)} ${s.right}/${s.total}`);
  const right = [...scores.values()].reduce((n, s) => n + s.right, 0);
  const total = [...scores.values()].reduce((n, s) => n + s.total, 0);
  console.log([`gemini corpus readings: ${right}/${total} right (plain and SGR)`, 'per version:', ...lines].join('\n'));
});

describe('every Gemini CLI corpus capture reads as labelled', () => {
  it('the corpus holds captures of at least two versions, under tmux and pty', () => {
    expect(new Set(CASES.map((c) => c.meta.version)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(CASES.map((c) => c.meta.backend))).toEqual(new Set(['tmux', 'pty']));
  });

  it.each(CASES.map((c) => [`${c.name} (${c.format})`, c] as const))('%s', (_name, c) => {
    const text = readFileSync(`${c.base}${c.format === 'ansi' ? '.ansi.txt' : '.txt'}`, 'utf8');
    const opts = { cols: c.meta.cols, rows: c.meta.rows };
    const screen = c.format === 'ansi' ? parseAnsi(text, opts) : parsePlain(text, opts);
    const want = c.meta.expected;
    for (const agent of ['gemini', `gemini@${c.meta.version}`]) {
      const reading = analyseScreen(screen, agent);
      const right = reading.state === want.state && (want.promptBox === undefined || reading.promptBox === want.promptBox) &&
        (want.state !== 'blocked' || want.reason === undefined || reading.blockedReason === want.reason);
      const s = scores.get(c.meta.version) ?? { right: 0, total: 0 };
      scores.set(c.meta.version, { right: s.right + (right ? 1 : 0), total: s.total + 1 });
      expect(reading.state, agent).toBe(want.state);
      if (want.promptBox !== undefined) expect(reading.promptBox, agent).toBe(want.promptBox);
      if (want.state === 'blocked' && want.reason !== undefined) expect(reading.blockedReason, agent).toBe(want.reason);
      // A turn that ended in an error names it; no other screen of the corpus may be read as one.
      expect(reading.agentError != null, `${agent}: the turn ended in an error`).toBe(want.agentError === true);
      // A person is told what is asked: the dialog's question, word for word.
      if (want.reason === 'permission' || want.reason === 'question') expect(reading.dialog?.question, agent).toMatch(/\?$/);
    }
  });
});
