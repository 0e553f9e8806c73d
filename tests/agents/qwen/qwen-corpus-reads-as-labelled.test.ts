/**
 * Every capture of the Qwen Code corpus (tests/fixtures/qwen-corpus/<version>/, written by
 * `npm run capture -- --agent qwen --version <v>`) reads as the scenario that produced it says,
 * plain and SGR, tmux and pty, with the qwen profile. A blocked screen also quotes its question and
 * names its options with the cursor on the first (option 1); a refused turn names its error.
 * The label comes from what the scenario did, never from this reader.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { corpusCases, screenOf, useCorpusScores } from '../../helpers/corpus-readings.ts';

const CORPUS = fileURLToPath(new URL('../../fixtures/qwen-corpus/', import.meta.url));

const CASES = corpusCases(CORPUS);
const corpus = useCorpusScores('qwen');

describe('every Qwen Code corpus capture reads as labelled', () => {
  it('the corpus holds captures of at least two versions, under tmux and pty', () => {
    expect(new Set(CASES.map((c) => c.meta.version)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(CASES.map((c) => c.meta.backend))).toEqual(new Set(['tmux', 'pty']));
  });

  it.each(CASES.map((c) => [`${c.meta.version} ${c.name} (${c.format})`, c] as const))('%s', (_name, c) => {
    const screen = screenOf(c);
    const want = c.meta.expected;
    for (const agent of ['qwen', `qwen@${c.meta.version}`]) {
      const reading = corpus.read(screen, c, agent);
      // A turn that ended in an error names it; no other screen of the corpus may be read as one.
      expect(reading.agentError != null, `${agent}: the turn ended in an error`).toBe(want.agentError === true);
      if (want.agentError) expect(reading.agentError, agent).toContain('fake refusal for the corpus');
      // A person is told what is asked: the dialog's question, its options, the cursor on the first.
      if (want.reason === 'permission' || want.reason === 'question') {
        expect(reading.dialog?.question, agent).toMatch(/\?$/);
        expect(reading.dialog?.options[0]?.label, agent).toMatch(want.reason === 'permission' ? /^Yes, allow once$/ : /^SQLite$/);
        expect(reading.dialog?.cursor, agent).toBe(1);
        // The question's own answer row takes typed text, as Claude Code's does.
        if (want.reason === 'question') expect(reading.dialog?.options.at(-1), agent).toMatchObject({ label: 'Type something...', freeText: true });
      }
    }
  });
});
