/**
 * Rule: OpenCode's session view whose last transcript entry is a user's message — no reply, no
 * `▣` footer under it — with the composer empty and no dialog, is a turn still pending: working.
 * OpenCode 1.18.33 opens the session view the moment it takes the Enter, and on a loaded machine
 * holds it up to 1.6 s (measured) before the turn's spinner shows; read idle, the worker could be
 * called settled before its turn began (tests/fixtures/opencode-first-prompt/, a real capture).
 *
 * What the rule must leave alone is read from the corpus's real captures: a finished turn, a turn
 * that ended in an error, a turn after a tool ran, the dialogs. Screens marked "derived" are a
 * real capture with one row changed, to show which part of the screen the rule stands on.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseScreen, parsePlain } from '../../../io/screen/index.ts';
import { parseAnsi } from '../../../io/screen/parse-ansi.ts';
import type { ScreenReading } from '../../../io/screen/types.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
const SIZE = { cols: 120, rows: 40 };
const ansiOf = (path: string): string => readFileSync(join(FIXTURES, path), 'utf8');
const read = (ansi: string): ScreenReading => analyseScreen(parseAnsi(ansi, SIZE), 'opencode@1.18.33');
const SESSION_OPENED = ansiOf('opencode-first-prompt/tmux-session-opened.ansi.txt');
const corpus = (name: string): string => ansiOf(`opencode-corpus/1.18.33/${name}.ansi.txt`);

/** The capture with row `row` drawn as `text` instead (a row of the transcript's blank middle, or one to drop). */
function withRow(ansi: string, row: number, text: string): string {
  const rows = ansi.split('\n');
  rows[row] = text;
  return rows.join('\n');
}
const rowOf = (ansi: string, re: RegExp): number => parseAnsi(ansi, SIZE).lines.findIndex((l) => re.test(l.text));

describe('a prompt with nothing under it is a turn still pending', () => {
  it('the real session view before the spinner (our prompt the last message, the box empty) reads as working', () => {
    const r = read(SESSION_OPENED);
    expect(r).toMatchObject({ state: 'working', readable: true, awaitingInput: false, promptBox: '', promptBoxKind: 'empty', agentError: null });
    // The idle status row is all the screen shows below the box: the rule, not a spinner, says working.
    expect(parseAnsi(SESSION_OPENED, SIZE).lines.some((l) => /esc interrupt|[■⬝]{4}/.test(l.text))).toBe(false);
  });

  it('a footer under the prompt (an interrupted turn draws `▣ … · interrupted`) ends it: not pending (derived)', () => {
    const footer = withRow(SESSION_OPENED, 10, '     \u001b[38;5;75m▣\u001b[38;5;15m  Build · Claude Fake · interrupted');
    expect(read(footer).state).toBe('idle');
    const reply = withRow(SESSION_OPENED, 10, '     Done. This is the fake model.');
    expect(read(reply).state).toBe('idle');
  });

  it('a finished turn, a turn after a tool or a question, and a new session read as before: idle', () => {
    for (const name of ['tmux-finished-turn', 'pty-finished-turn', 'tmux-after-permission-yes', 'tmux-after-question-answered', 'tmux-typed-after-turn', 'tmux-idle']) {
      expect(read(corpus(name)).state, name).toBe('idle');
    }
  });

  it('a turn that ended in an error reads idle with its error, also with its footer gone (derived): a red panel is no prompt', () => {
    const error = corpus('tmux-api-error');
    expect(read(error)).toMatchObject({ state: 'idle', agentError: 'fake: this request is refused' });
    const footerRow = rowOf(error, /^\s*▣\s/);
    expect(footerRow).toBeGreaterThan(0);
    expect(read(withRow(error, footerRow, ''))).toMatchObject({ state: 'idle', agentError: 'fake: this request is refused' });
  });

  it("a tool's block last (its reply and footer gone, derived) is no prompt: idle", () => {
    const tool = corpus('tmux-after-permission-yes');
    const reply = rowOf(tool, /The tool finished/);
    const footer = rowOf(tool, /^\s*▣\s/);
    expect(read(withRow(withRow(tool, reply, ''), footer, '')).state).toBe('idle');
  });

  it('a dialog is blocked, never working', () => {
    for (const name of ['tmux-permission-shell', 'tmux-permission-edit', 'tmux-question', 'pty-question']) {
      expect(read(corpus(name)), name).toMatchObject({ state: 'blocked', awaitingInput: true });
    }
  });

  it('without the cells\' colours a prompt cannot be told from a tool\'s block: the rule does not guess', () => {
    const plain = parseAnsi(SESSION_OPENED, SIZE).lines.map((l) => l.text).join('\n');
    expect(analyseScreen(parsePlain(plain, SIZE), 'opencode@1.18.33').state).toBe('idle');
  });
});
