/**
 * Every capture of the Codex CLI corpus (tests/fixtures/codex-corpus/<version>/, written by
 * `npm run capture -- --agent codex --version <v>`) reads as the scenario that produced it says,
 * plain and SGR, tmux and pty. The label comes from what the scenario did (a finished turn: Codex's
 * own notify said so), never from this reader.
 *
 * Each capture is read as a worker of that release reads it: with the reader of its version
 * (`codex@<version>`) and, where the capture recorded Codex's turn-end word, through the witness
 * that word reaches in a worker (actors/witness.ts). A release whose finished and streaming turns
 * are the same screen (0.150.0) cannot be told by the screen alone: its streaming screen must read
 * "could not tell" (at work as far as anyone knows, never idle), and its finished one idle only
 * by the word. No screen that waits on a person reads as anything else; no working screen reads
 * idle, whatever reader reads it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseScreen, parseAnsi, parsePlain } from '../../../io/screen/index.ts';
import { CODEX_CORPUS_VERSIONS } from '../../../io/screen/profiles/codex.ts';
import { openTurnTailFor } from '../../../io/screen/profiles/codex-releases.ts';
import { newWitness, onNote, onScreen } from '../../../actors/witness.ts';
import type { ScreenReading } from '../../../contract/screen-reading.ts';
import { corpusCaptures, type CorpusMeta } from '../../helpers/corpus-files.ts';

const CORPUS = fileURLToPath(new URL('../../fixtures/codex-corpus/', import.meta.url));

type Meta = CorpusMeta & { expected: CorpusMeta['expected'] & { turnEndWord?: boolean } };

const CASES = corpusCaptures<Meta>(CORPUS).flatMap(({ name, base, meta }) =>
  (['plain', 'ansi'] as const).map((format) => ({ name: `${name} (${format})`, base, meta, format })),
);

/** The reading a worker's machine gets: the screen's, then the witness with the word the capture saw. */
function workerReading(screen: ScreenReading, turnEndWord: boolean): ScreenReading {
  if (!turnEndWord) return screen;
  const w = newWitness();
  onNote(w, { id: 'w', event: 'Stop', at: 1 }, 1);
  return onScreen(w, screen, 2);
}

const verdicts: { version: string; right: boolean; byWord: boolean; couldNotTell: boolean }[] = [];
afterAll(() => {
  const right = verdicts.filter((v) => v.right).length;
  const per = [...new Set(verdicts.map((v) => v.version))].sort().map((v) => {
    const mine = verdicts.filter((x) => x.version === v);
    const byWord = mine.filter((x) => x.byWord).length;
    const unsure = mine.filter((x) => x.couldNotTell).length;
    return `  codex ${v}: ${mine.filter((x) => x.right).length}/${mine.length}${byWord ? ` (${byWord} idle only by the turn-end word)` : ''}${unsure ? ` (${unsure} running turns read "could not tell")` : ''}`;
  });
  console.log([`codex corpus readings: ${right}/${verdicts.length} right (${(100 * right / Math.max(1, verdicts.length)).toFixed(0)} %)`, ...per].join('\n'));
});

describe('every Codex corpus capture reads as labelled', () => {
  it('the corpus holds captures of at least three Codex versions, old and new, each state on tmux and pty', () => {
    const versions = new Set(CASES.map((c) => c.meta.version));
    expect(versions.size).toBeGreaterThanOrEqual(3);
    expect(versions.has('0.169.0')).toBe(true);
    // The reader's own list of corpus versions is the corpus (hand doctor quotes it).
    expect([...versions].sort()).toEqual([...CODEX_CORPUS_VERSIONS].sort());
    for (const state of ['idle', 'working', 'blocked']) {
      expect(new Set(CASES.filter((c) => c.meta.expected.state === state).map((c) => c.meta.backend))).toEqual(new Set(['tmux', 'pty']));
    }
    expect(CASES.some((c) => c.meta.expected.state === 'exited')).toBe(true);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const text = readFileSync(`${c.base}${c.format === 'ansi' ? '.ansi.txt' : '.txt'}`, 'utf8');
    const opts = { cols: c.meta.cols, rows: c.meta.rows };
    const screen = c.format === 'ansi' ? parseAnsi(text, opts) : parsePlain(text, opts);
    const want = c.meta.expected;
    const alone = analyseScreen(screen, `codex@${c.meta.version}`);
    const reading = workerReading(alone, want.turnEndWord === true);
    // A release that draws a streaming turn and a finished one alike says it cannot tell; the
    // machine keeps such a worker at work (busy), never settled, until the word comes.
    const undecidable = openTurnTailFor(c.meta.version) === 'cannot-tell';
    const couldNotTell = want.state === 'working' && undecidable && reading.state === 'unknown' && reading.readable && reading.promptBox !== null;
    const right = (reading.state === want.state || couldNotTell)
      && (want.promptBox === undefined || reading.promptBox === want.promptBox)
      && (want.reason === undefined || reading.blockedReason === want.reason)
      && (want.agentError === undefined || (reading.agentError != null) === want.agentError);
    verdicts.push({ version: c.meta.version, right, byWord: alone.state !== 'idle' && reading.state === 'idle', couldNotTell });
    expect(couldNotTell ? 'working' : reading.state).toBe(want.state);
    // Only the release that cannot tell leans on the word: every other reads its finished turn alone.
    if (!undecidable) expect(alone.state).toBe(reading.state);
    if (want.promptBox !== undefined) expect(reading.promptBox).toBe(want.promptBox);
    if (want.reason !== undefined) expect(reading.blockedReason).toBe(want.reason);
    // A turn that ended in an API error is told from a finished one, and only that one.
    expect(reading.agentError != null, 'the turn ended in an error').toBe(want.agentError === true);
    // The screen is the authority both ways: waiting on a person is awaitingInput, nothing else is.
    expect(reading.awaitingInput).toBe(want.state === 'blocked');
    // Never finished early: a running turn reads idle to no reader, the versionless one included.
    if (want.state === 'working') expect(analyseScreen(screen, 'codex').state).not.toBe('idle');
    // The empty box's hint is the empty box; typed text is content a send must not add to.
    if (c.meta.scenario === 'idle') expect(reading.promptBoxKind).toBe('placeholder');
    if (c.meta.scenario === 'typed' || c.meta.scenario === 'multi-line-draft') expect(reading.promptBoxKind).toBe('typed');
    // The approval quotes what the model asked, word for word (without Codex's "Reason:" label), with its options in order.
    if (c.meta.scenario === 'approval') {
      expect(reading.dialog?.question).toBe('Do you allow creating approved.txt?');
      expect(reading.dialog?.options.map((o) => o.label)[0]).toBe('Yes, proceed (y)');
    }
  });
});
