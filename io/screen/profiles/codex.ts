/**
 * How Codex CLI (0.160–0.169, its ratatui TUI) looks on screen. Sources: the corpus under
 * tests/fixtures/codex-corpus/ (captured by `npm run capture -- --agent codex --version <v>`)
 * and the strings of the 0.169.0 binary.
 *
 *  - The box is `›` (U+203A) + a plain space at column 0, the placeholder `Ask Codex to do
 *    anything` drawn dim; below it only indented footer rows (model · directory · title, key
 *    hints). An echoed prompt is drawn the same way, so the live box is the LAST such row with
 *    nothing at column 0 below it: an echo always has the turn's `•` entries under it.
 *  - A running turn draws `• Working (3s • esc to interrupt)` (the word becomes the reasoning
 *    header while one streams) just above the box, but hides it once a reply's text is out;
 *    a finished turn always leaves `Worked for 5s • 08:09` or a `■ …` line under it.
 *  - Approvals replace the box: `Would you like to run the following command?`, the model's
 *    `Reason: …`, then `› 1. Yes, proceed (y)` … and `Press enter to confirm or esc to cancel`.
 *  - /exit leaves `To continue this session, run:` / `codex resume <id>` on the screen.
 */
import type { BlockerRule, PromptBoxSpec, ScreenProfileSpec } from '../profile-spec.ts';
import type { ScreenLayout } from '../layout.ts';
import type { Screen } from '../types.ts';

/** The versions the corpus holds captures of (tests/fixtures/codex-corpus/), oldest first. */
export const CODEX_CORPUS_VERSIONS: readonly string[] = ['0.160.1', '0.169.0'];

function compareCodexVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/** Where a Codex version stands against the corpus, in one line (`hand doctor`). */
export function codexCorpusStanding(version: string): string {
  const oldest = CODEX_CORPUS_VERSIONS[0]!;
  const newest = CODEX_CORPUS_VERSIONS.at(-1)!;
  if (CODEX_CORPUS_VERSIONS.includes(version)) return `in the reader's corpus (${oldest} … ${newest})`;
  if (compareCodexVersions(version, newest) > 0) return `newer than the reader's corpus (newest ${newest}): its screens may read "could not tell" more often; fix: npm run capture -- --agent codex --version ${version}`;
  if (compareCodexVersions(version, oldest) < 0) return `older than the reader's corpus (oldest ${oldest})`;
  return `between the corpus versions (${oldest} … ${newest})`;
}

const BOX_ROW = /^\u203A (?!\s*\d{1,2}[.)]\s)/u;
/** How far below the box its footer reaches (a blank, model line, hint line, queued notes). */
const FOOTER_ROWS = 6;

/** The live box: the last `› ` row (no numbered option) with only indented or blank rows under it. */
function locateCodexBox(texts: readonly string[]): { row: number; start: number } | null {
  for (let r = texts.length - 1; r >= 0; r--) {
    const text = texts[r]!;
    if (text !== '' && text[0] !== ' ' && !BOX_ROW.test(text)) return null;
    if (!BOX_ROW.test(text)) continue;
    let footer = 0;
    for (let k = r + 1; k < texts.length; k++) if (texts[k]!.trim() !== '') footer++;
    return footer <= FOOTER_ROWS ? { row: r, start: 2 } : null;
  }
  return null;
}

export const CODEX_BOX: PromptBoxSpec = {
  prefix: '\u203A ',
  glyphs: '\u203A',
  frame: '',
  placeholders: [/^Ask Codex to do anything$/],
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

/** What ends a turn on screen: `Worked for 5s • 08:09` under it, or a `■ …` line (error, interrupt). */
const TURN_END = /^(?:\s+Worked for <?\d|\u25A0 )/u;
/** A turn's entry under its echoed prompt: a reply or tool bullet (`• …`), an approval note (`✔ …`). */
const TURN_ENTRY = /^[•✔✗] \S/u;

/**
 * A turn still running although its status line is gone: 0.169.0 hides `Working (… esc to
 * interrupt)` once a reply's text is out while the response is still open. Read from the box up:
 * entries under the last echoed prompt and no end line after them. Without the echo on screen
 * (scrolled away) this cannot tell and says no.
 */
function turnStillOpen(texts: readonly string[], boxRow: number): boolean {
  let entry = false;
  for (let r = boxRow - 1; r >= 0; r--) {
    const text = texts[r]!;
    if (TURN_END.test(text)) return false;
    if (TURN_ENTRY.test(text)) entry = true;
    else if (BOX_ROW.test(text)) return entry;
  }
  return false;
}

function isWorking(layout: ScreenLayout): boolean {
  const { boxRow, texts } = layout;
  const from = boxRow === -1 ? Math.max(0, texts.length - 12) : Math.max(0, boxRow - STATUS_WINDOW);
  const to = boxRow === -1 ? texts.length : boxRow;
  for (let r = from; r < to; r++) if (INTERRUPT_HINT.test(texts[r]!)) return true;
  return boxRow !== -1 && turnStillOpen(texts, boxRow);
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
  return locateCodexBox(screen.lines.map((row) => row.text)) !== null;
}

export const codexSpec: ScreenProfileSpec = {
  name: 'codex',
  aliases: ['codex-cli'],
  box: CODEX_BOX,
  blockers: CODEX_BLOCKERS,
  isWorking,
  isExited,
  isReadable,
  turnError,
};
