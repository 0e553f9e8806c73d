/**
 * How Codex CLI (0.100–0.171, its ratatui TUI) looks on screen. Sources: the corpus under
 * tests/fixtures/codex-corpus/ (captured by `npm run capture -- --agent codex --version <v>`),
 * the strings of the binaries, and docs/2026-12-06-codex-releases-and-the-turn-end.md.
 *
 *  - The box is `›` (U+203A) + a plain space at column 0, its empty-box hint drawn dim
 *    (`Ask Codex to do anything` from 0.150; before that one of a dozen example prompts). Below
 *    it only indented rows: a draft's further lines right under it, then a blank row and the
 *    footer (model · directory · title, key hints). An echoed prompt is drawn the same way, so
 *    the live box is the LAST such row with nothing at column 0 below it: an echo always has the
 *    turn's `•` entries under it.
 *  - A running turn draws `• Working (3s • esc to interrupt)` (the word becomes the reasoning
 *    header while one streams) just above the box. Whether a turn with entries and no status
 *    line is over depends on the release (codex-releases.ts): the reader asks what the worker's
 *    release draws, and where the screen cannot tell it says so (the witness decides).
 *  - Approvals replace the box: `Would you like to run the following command?`, the model's
 *    `Reason: …`, then `› 1. Yes, proceed (y)` … and `Press enter to confirm or esc to cancel`.
 *  - /exit leaves `To continue this session, run:` / `codex resume <id>` on the screen.
 */
import type { BlockerRule, PromptBoxSpec, ScreenProfileSpec } from '../profile-spec.ts';
import type { FoundBox, ScreenLayout } from '../layout.ts';
import type { Screen } from '../types.ts';
import { openTurnTailFor, type OpenTurnTail } from './codex-releases.ts';

export { CODEX_CORPUS_VERSIONS, codexCorpusStanding } from './codex-releases.ts';

const BOX_ROW = /^\u203A (?!\s*\d{1,2}[.)]\s)/u;
/** How far below the box its footer reaches (a blank, model line, hint line, queued notes). */
const FOOTER_ROWS = 6;

/**
 * The live box: the last `› ` row (no numbered option) with only indented or blank rows under
 * it; a draft's further lines are the indented rows right under it (up to the first blank row,
 * where the footer begins); the footer under them has at most FOOTER_ROWS rows.
 */
function findCodexBox(texts: readonly string[]): FoundBox | null {
  for (let r = texts.length - 1; r >= 0; r--) {
    const text = texts[r]!;
    if (text !== '' && text[0] !== ' ' && !BOX_ROW.test(text)) return null;
    if (!BOX_ROW.test(text)) continue;
    let last = r;
    while (last + 1 < texts.length && texts[last + 1]!.startsWith('  ') && texts[last + 1]!.trim() !== '') last++;
    let footer = 0;
    for (let k = last + 1; k < texts.length; k++) if (texts[k]!.trim() !== '') footer++;
    return footer <= FOOTER_ROWS ? { row: r, start: 2, lastRow: last } : null;
  }
  return null;
}

function locateCodexBox(texts: readonly string[]): { row: number; start: number } | null {
  const box = findCodexBox(texts);
  return box === null ? null : { row: box.row, start: box.start };
}

/**
 * The empty box's hint: 0.150.0 and later draw `Ask Codex to do anything`; 0.100.0–0.140.0 draw
 * one of these example prompts, a different one each session (the binaries' strings). Only a hint
 * drawn dim counts as the empty box (prompt-box.ts): the same words typed are typed text.
 */
const CODEX_PLACEHOLDERS: readonly RegExp[] = [
  /^Ask Codex to do anything$/,
  /^Explain this codebase$/,
  /^Summarize recent commits$/,
  /^Implement \{feature\}$/,
  /^Find and fix a bug in @filename$/,
  /^Write tests for @filename$/,
  /^Improve documentation in @filename$/,
  /^Run \/review on my current changes$/,
  /^Use \/skills to list available skills$/,
  /^Check recently modified functions for compatibility$/,
  /^How many files have been modified\?$/,
  /^Will this algorithm scale well\?$/,
];

export const CODEX_BOX: PromptBoxSpec = {
  prefix: '\u203A ',
  glyphs: '\u203A',
  frame: '',
  placeholders: CODEX_PLACEHOLDERS,
  locate: locateCodexBox,
};

export const CODEX_BLOCKERS: readonly BlockerRule[] = [
  { reason: 'folder-trust', anyOf: ['Trust this folder?', 'Do you trust the contents of this directory?'] },
  { reason: 'onboarding', anyOf: ['Sign in with ChatGPT', 'Provide your own API key', 'Welcome to Codex'] },
  { reason: 'question', anyOf: ['Would you like to send input to'] },
  {
    reason: 'permission',
    anyOf: [
      'Would you like to run the following command?',
      'Would you like to make the following edits?',
      'Would you like to grant these permissions?',
      'Do you want to approve network access',
    ],
  },
  { reason: 'dialog', anyOf: ['Update available', 'enter continue · esc back'] },
  // The approval's footer outlives its menu for a frame after an answer: only with the menu it asks.
  { reason: 'dialog', anyOf: ['Press enter to confirm or esc to cancel'], needsMenu: true },
];

const INTERRUPT_HINT = /\besc to interrupt\)/;
/** How many rows above the box the status line may sit (queued messages come between). */
const STATUS_WINDOW = 8;

/**
 * What ends a turn on screen, in every release that draws one: an indented line under the turn
 * that ends on the clock time the turn ended, after an optional duration and date (`  02:59`
 * 0.158.0; `  done 2:59 AM`, `  done Dec 6 at 2:59 AM` 0.155.0; `  Worked for <1s • 08:26` 0.160.1
 * and later; the binaries' format strings), `Worked for 1m 5s` alone, or a `■ …` line (an error,
 * an interrupt).
 */
const DURATION = String.raw`(?:Worked for )?<?\d+(?:\.\d+)?[hms]?(?: \d+[hms])*`;
const CLOCK = String.raw`(?:done )?(?:[A-Z][a-z]{2} \d{1,2}(?:, \d{4})? (?:at )?)?\d{1,2}:\d{2}(?::\d{2})?(?: ?[AP]M)?`;
const TURN_END = new RegExp(String.raw`^(?:\s+(?:${DURATION}\s*[•·]\s*)?${CLOCK}\s*$|\s+Worked for <?\d|\u25A0 )`, 'u');
/** A turn's entry under its echoed prompt: a reply or tool bullet (`• …`, `◦ …`), an approval note (`✔ …`). */
const TURN_ENTRY = /^[•◦✔✗] \S/u;

/**
 * Whether a turn is still open above the box, read from the box up: entries under the last echoed
 * prompt and no end line after them is an open-looking tail ('tail'); an end line first, or no
 * entries, is 'ended'. Without the echo on screen (scrolled away) this cannot tell and says
 * 'ended', as before: the status line is then the only sign of a running turn.
 */
function turnTail(texts: readonly string[], boxRow: number): 'tail' | 'ended' {
  let entry = false;
  for (let r = boxRow - 1; r >= 0; r--) {
    const text = texts[r]!;
    if (TURN_END.test(text)) return 'ended';
    if (TURN_ENTRY.test(text)) entry = true;
    else if (BOX_ROW.test(text)) return entry ? 'tail' : 'ended';
  }
  return 'ended';
}

function showsStatusLine(layout: ScreenLayout): boolean {
  const { boxRow, texts } = layout;
  const from = boxRow === -1 ? Math.max(0, texts.length - 12) : Math.max(0, boxRow - STATUS_WINDOW);
  const to = boxRow === -1 ? texts.length : boxRow;
  for (let r = from; r < to; r++) if (INTERRUPT_HINT.test(texts[r]!)) return true;
  return false;
}

/** The reading of a release whose open-looking tail means `tail` (codex-releases.ts). */
function turnReaders(tail: OpenTurnTail): Pick<ScreenProfileSpec, 'isWorking' | 'turnUndecided'> {
  const open = (layout: ScreenLayout) => layout.boxRow !== -1 && turnTail(layout.texts, layout.boxRow) === 'tail';
  return {
    isWorking: (layout) => showsStatusLine(layout) || (tail === 'running' && open(layout)),
    turnUndecided: (layout) => tail === 'cannot-tell' && open(layout),
  };
}

/**
 * Codex prints a turn's end-in-error as a `■ ` line under the turn (`■ unexpected status 500 …`,
 * `■ stream disconnected before completion: …`, `■ Missing environment variable: …`); a person's
 * Esc prints `■ Conversation interrupted …` the same way, which is no error. Only the rows nearest
 * the live box, below the last echoed prompt, count: an earlier turn's error is history.
 */
const ERROR_LINE = /^\u25A0 (?!Conversation interrupted)(\S.*)$/u;
const NEAR_BOX_ROWS = 4;

function turnError(layout: ScreenLayout): string | null {
  if (layout.boxRow < 0) return null;
  let seen = 0;
  for (let r = layout.boxRow - 1; r >= 0 && seen < NEAR_BOX_ROWS; r--) {
    const text = layout.texts[r]!;
    if (text.trim() === '') continue;
    if (BOX_ROW.test(text)) return null;
    seen++;
    const m = ERROR_LINE.exec(text);
    if (m) return m[1]!.trim();
  }
  return null;
}

const RESUME_HINT = 'To continue this session, run:';

function isExited(layout: ScreenLayout): boolean {
  if (layout.boxRow !== -1) return false;
  for (let r = layout.texts.length - 1; r >= 0; r--) {
    if (layout.texts[r]!.startsWith(RESUME_HINT)) return true;
  }
  return false;
}

/**
 * Codex's hints, each drawn on one row; in a pane too narrow to read they wrap or are cut. One of
 * them whole, or the live box over its footer, says a pane of 40+ columns can be read even when
 * no row reaches 40 (a short working directory leaves the idle screen that narrow).
 */
const WHOLE_HINTS = ['? for shortcuts', 'esc to interrupt)', 'Press enter to confirm or esc to cancel', 'enter continue · esc back', 'To continue this session, run:'];

function isReadable(screen: Screen, wideEnough: boolean): boolean {
  if (wideEnough) return true;
  if (screen.cols < 40) return false;
  if (screen.lines.some((row) => WHOLE_HINTS.some((hint) => row.text.includes(hint)))) return true;
  // Typing hides the hint row; the box with its footer under it is then the proof.
  return findCodexBox(screen.lines.map((row) => row.text)) !== null;
}

const BASE = {
  name: 'codex',
  aliases: ['codex-cli'],
  box: CODEX_BOX,
  findBox: findCodexBox,
  blockers: CODEX_BLOCKERS,
  isExited,
  isReadable,
  turnError,
};

/** The reader of a Codex release's era, by what its open-looking tail means (codex-releases.ts). */
function specFor(tail: OpenTurnTail, name: string): ScreenProfileSpec {
  return { ...BASE, name, ...turnReaders(tail) };
}

/** Without a version: the newest captured release's reading. `codex@<version>` reads that release's way. */
export const codexSpec: ScreenProfileSpec = {
  ...specFor(openTurnTailFor(null), 'codex'),
  forVersion(version) {
    const tail = openTurnTailFor(version);
    return specFor(tail, `codex@tail-${tail}`);
  },
};
