/**
 * Every capture of the Codex CLI corpus (tests/fixtures/codex-corpus/<version>/, written by
 * `npm run capture -- --agent codex --version <v>`) reads as the scenario that produced it says,
 * plain and SGR, tmux and pty. The label comes from what the scenario did, never from this reader.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseScreen, parseAnsi, parsePlain } from '../../../io/screen/index.ts';
import { corpusCaptures, type CorpusMeta } from '../../helpers/corpus-files.ts';

const CORPUS = fileURLToPath(new URL('../../fixtures/codex-corpus/', import.meta.url));

type Meta = CorpusMeta;

const CASES = corpusCaptures<Meta>(CORPUS).flatMap(({ name, base, meta }) =>
  (['plain', 'ansi'] as const).map((format) => ({ name: `${name} (${format})`, base, meta, format })),
);

const verdicts: { version: string; right: boolean }[] = [];
afterAll(() => {
  const right = verdicts.filter((v) => v.right).length;
  const per = [...new Set(verdicts.map((v) => v.version))].map((v) => {
    const mine = verdicts.filter((x) => x.version === v);
    return `  codex ${v}: ${mine.filter((x) => x.right).length}/${mine.length}`;
  });
  console.log([`codex corpus readings: ${right}/${verdicts.length} right (${(100 * right / Math.max(1, verdicts.length)).toFixed(0)} %)`, ...per].join('\n'));
});

describe('every Codex corpus capture reads as labelled', () => {
  it('the corpus holds captures of at least two Codex versions, each state on tmux and pty', () => {
    expect(new Set(CASES.map((c) => c.meta.version)).size).toBeGreaterThanOrEqual(2);
    for (const state of ['idle', 'working', 'blocked']) {
      expect(new Set(CASES.filter((c) => c.meta.expected.state === state).map((c) => c.meta.backend))).toEqual(new Set(['tmux', 'pty']));
    }
    expect(CASES.some((c) => c.meta.expected.state === 'exited')).toBe(true);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const text = readFileSync(`${c.base}${c.format === 'ansi' ? '.ansi.txt' : '.txt'}`, 'utf8');
    const opts = { cols: c.meta.cols, rows: c.meta.rows };
    const reading = analyseScreen(c.format === 'ansi' ? parseAnsi(text, opts) : parsePlain(text, opts), 'codex');
    const want = c.meta.expected;
    const right = reading.state === want.state
      && (want.promptBox === undefined || reading.promptBox === want.promptBox)
      && (want.reason === undefined || reading.blockedReason === want.reason)
      && (want.agentError === undefined || (reading.agentError != null) === want.agentError);
    verdicts.push({ version: c.meta.version, right });
    expect(reading.state).toBe(want.state);
    if (want.promptBox !== undefined) expect(reading.promptBox).toBe(want.promptBox);
    if (want.reason !== undefined) expect(reading.blockedReason).toBe(want.reason);
    // A turn that ended in an API error is told from a finished one, and only that one.
    expect(reading.agentError != null, 'the turn ended in an error').toBe(want.agentError === true);
    // The screen is the authority both ways: waiting on a person is awaitingInput, nothing else is.
    expect(reading.awaitingInput).toBe(want.state === 'blocked');
    // The placeholder is the empty box; typed text is content a send must not add to.
    if (c.meta.scenario === 'idle') expect(reading.promptBoxKind).toBe('placeholder');
    if (c.meta.scenario === 'typed') expect(reading.promptBoxKind).toBe('typed');
    // The approval quotes what the model asked, word for word, with its options in order.
    if (c.meta.scenario === 'approval') {
      expect(reading.dialog?.question).toBe('Reason: Do you allow creating approved.txt?');
      expect(reading.dialog?.options.map((o) => o.label)[0]).toBe('Yes, proceed (y)');
    }
  });
});
