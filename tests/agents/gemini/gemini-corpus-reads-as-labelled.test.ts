/**
 * Every capture of the Gemini CLI corpus (tests/fixtures/gemini-corpus/<version>/, written by
 * `npm run capture -- --agent gemini --version <v>`) reads as the scenario that produced it says,
 * plain and SGR, tmux and pty, with the gemini profile. A blocked screen also quotes its question.
 * The label comes from what the scenario did, never from this reader. A start held before Gemini
 * CLI loads its configuration (starting-up) reads idle and still starting; no other capture does.
 */
import { expect } from 'vitest';
import { everyCaptureReadsAsLabelled, TWO_VERSIONS_BOTH_BACKENDS } from '../every-capture-reads-as-labelled.ts';

everyCaptureReadsAsLabelled({
  agent: 'gemini',
  title: 'every Gemini CLI corpus capture reads as labelled',
  holds: TWO_VERSIONS_BOTH_BACKENDS,
  caseTitle: (c) => `${c.name} (${c.format})`,
  check(reading, c, agent) {
    const want = c.meta.expected;
    // A turn that ended in an error names it; no other screen of the corpus may be read as one.
    expect(reading.agentError != null, `${agent}: the turn ended in an error`).toBe(want.agentError === true);
    // A box drawn before the rest of the start screen says the agent is still starting; no other screen does.
    expect(reading.startingUp === true, `${agent}: still starting`).toBe(want.startingUp === true);
    // A person is told what is asked: the dialog's question, word for word.
    if (want.reason === 'permission' || want.reason === 'question') expect(reading.dialog?.question, agent).toMatch(/\?$/);
  },
});
