/**
 * Every capture of the Gemini CLI corpus (tests/fixtures/gemini-corpus/<version>/, written by
 * `npm run capture -- --agent gemini --version <v>`) reads as the scenario that produced it says,
 * plain and SGR, tmux and pty, with the gemini profile. A blocked screen also quotes its question.
 * The label comes from what the scenario did, never from this reader.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { corpusCases, screenOf, useCorpusScores } from '../../helpers/corpus-readings.ts';

const CORPUS = fileURLToPath(new URL('../../fixtures/gemini-corpus/', import.meta.url));

const CASES = corpusCases(CORPUS);
const corpus = useCorpusScores('gemini');

describe('every Gemini CLI corpus capture reads as labelled', () => {
  it('the corpus holds captures of at least two versions, under tmux and pty', () => {
    expect(new Set(CASES.map((c) => c.meta.version)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(CASES.map((c) => c.meta.backend))).toEqual(new Set(['tmux', 'pty']));
  });

  it.each(CASES.map((c) => [`${c.name} (${c.format})`, c] as const))('%s', (_name, c) => {
    const screen = screenOf(c);
    const want = c.meta.expected;
    for (const agent of ['gemini', `gemini@${c.meta.version}`]) {
      const reading = corpus.read(screen, c, agent);
      // A turn that ended in an error names it; no other screen of the corpus may be read as one.
      expect(reading.agentError != null, `${agent}: the turn ended in an error`).toBe(want.agentError === true);
      // A person is told what is asked: the dialog's question, word for word.
      if (want.reason === 'permission' || want.reason === 'question') expect(reading.dialog?.question, agent).toMatch(/\?$/);
    }
  });
});
