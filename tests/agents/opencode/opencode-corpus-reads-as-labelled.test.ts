/**
 * Every capture of the OpenCode corpus (tests/fixtures/opencode-corpus/<version>/, written by
 * `npm run capture -- --agent opencode --version <v>`) reads as the scenario that produced it
 * says, plain and SGR, tmux and pty, with the opencode profile. A blocked screen also says what
 * is asked and its choices; where the cells' colours were captured, which choice the cursor is on
 * (OpenCode draws no cursor glyph). The label comes from what the scenario did, never from this reader.
 */
import { expect } from 'vitest';
import { OPENCODE_CORPUS_VERSIONS } from '../../../io/screen/profiles/opencode.ts';
import { everyCaptureReadsAsLabelled } from '../every-capture-reads-as-labelled.ts';

everyCaptureReadsAsLabelled({
  agent: 'opencode',
  title: 'every OpenCode corpus capture reads as labelled',
  holds: {
    title: 'the corpus holds captures of the versions the reader names, under tmux and pty',
    check(cases) {
      expect([...new Set(cases.map((c) => c.meta.version))].sort()).toEqual([...OPENCODE_CORPUS_VERSIONS].sort());
      expect(OPENCODE_CORPUS_VERSIONS.length).toBeGreaterThanOrEqual(2);
      expect(new Set(cases.map((c) => c.meta.backend))).toEqual(new Set(['tmux', 'pty']));
    },
  },
  caseTitle: (c) => `${c.name} (${c.format})`,
  check(reading, c, agent) {
    const want = c.meta.expected;
    // The cells' colours (what the daemon always reads: tmux -e, the pty's cells); a plain capture has none.
    const cursorSeen = c.format === 'ansi';
    // A turn that ended in an error names it; no other screen of the corpus may be read as one.
    // Its only mark is its panel's red bar (no words say "error"): without colours it cannot be told.
    expect(reading.agentError != null, `${agent}: the turn ended in an error`).toBe(want.agentError === true && cursorSeen);
    if (want.agentError === true && cursorSeen) expect(reading.agentError, agent).toBe('fake: this request is refused');
    if (want.reason === 'permission') {
      // What is asked: the command or the file, as drawn; the three buttons, side by side.
      expect(reading.dialog?.question, agent).toMatch(/^Permission required: .*(touch fake-artifact|notes\.md)/);
      expect(reading.dialog?.options.map((o) => o.label), agent).toEqual(['Allow once', 'Allow always', 'Reject']);
      expect(reading.dialog?.across, agent).toBe(true);
      expect(reading.dialog?.cursor, agent).toBe(cursorSeen ? 1 : null);
    }
    if (want.reason === 'question') {
      expect(reading.dialog?.question, agent).toBe('Which database should the fake project use?');
      expect(reading.dialog?.options.map((o) => o.label), agent).toEqual(['SQLite', 'Postgres', 'None', 'Type your own answer']);
      expect(reading.dialog?.options.map((o) => o.freeText), agent).toEqual([false, false, false, true]);
      expect(reading.dialog?.cursor, agent).toBe(cursorSeen ? (c.meta.scenario === 'question-second-option' ? 2 : 1) : null);
    }
  },
});
