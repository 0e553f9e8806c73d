/**
 * How Qwen Code (0.15.6, 0.15.10; corpus in tests/fixtures/qwen-corpus/) looks on screen. It is a
 * fork of Gemini CLI and draws nearly its screens, with four differences the hooks here read:
 *  - the composer: a full-width `─` rule, the input row `> text` at column 0 (`>` then the cursor
 *    cell, then the placeholder when empty), another rule, then `? for shortcuts`; an echoed prompt
 *    in the transcript is indented (`  > text`) and has no rule above it;
 *  - a running turn: `⠧ <witty phrase> (2s · ↓ 4 tokens · esc to cancel)` just above the composer;
 *  - a permission's cursor is `›` (`› 1. Yes, allow once`), rewritten to `❯` for the core's dialog
 *    reader; the question's is already `❯`;
 *  - a turn's error: `  ✕ [API Error: …]` with its `(Press Ctrl+Y to retry)` under it, indented as
 *    every transcript entry is.
 * While a dialog is up (tool approval, ask_user_question, authentication) the composer is not drawn.
 */
import type { BlockerRule, PromptBoxReading, PromptBoxSpec, ScreenProfileSpec } from '../profile-spec.ts';
import type { FoundBox, ScreenLayout } from '../layout.ts';
import { isRule } from '../box-structure.ts';

/** The versions whose captures the reader is scored on (tests/fixtures/qwen-corpus/), oldest first. */
export const QWEN_CORPUS_VERSIONS: readonly string[] = ['0.15.6', '0.15.10'];

/** Placeholders of the empty box, anchored at both ends. */
export const QWEN_PLACEHOLDERS: readonly RegExp[] = [
  /^Type your message or @path\/to\/file$/,
  /^Type your shell command$/,
  /^Press 'Esc' for NORMAL mode\.$/,
  /^Press 'i' for INSERT mode\.$/,
];

export const QWEN_BOX: PromptBoxSpec = { prefix: '> ', glyphs: '>*!', frame: '', placeholders: QWEN_PLACEHOLDERS };

/** Most specific first: the first matching rule names the reason. */
export const QWEN_BLOCKERS: readonly BlockerRule[] = [
  { reason: 'folder-trust', anyOf: ['Do you trust this folder?', 'Do you trust the files in this folder?'] },
  { reason: 'onboarding', anyOf: ['Select Authentication Method'] },
  // ask_user_question: its free-text row and its key hints
  { reason: 'question', anyOf: ['Type something...', 'Enter: Select | Esc: Cancel'] },
  // Every tool confirmation offers these (shell, edit, web fetch). Its question (`Apply this
  // change?`) alone is not enough: a blocked reading is answered by number, so its options must be drawn.
  { reason: 'permission', anyOf: ['Yes, allow once', 'No, suggest changes'] },
  { reason: 'menu', anyOf: ['Enter to select', '↑/↓ to navigate', '(Use Enter to select)'] },
  { reason: 'dialog', anyOf: ['Esc to cancel', 'Press Enter to continue'] },
];

/** The input row at column 0: a mode glyph (or reverse search), a space. */
const INPUT_ROW = /^(?:\(r:\)|[>*!]) /;

/** The composer: the last input row with a full-width rule right above it; its text runs to the rule under it. */
function findBox(texts: readonly string[]): FoundBox | null {
  for (let r = texts.length - 1; r > 0; r--) {
    const m = INPUT_ROW.exec(texts[r]!);
    if (m === null || !isRule(texts[r - 1]!) || !/^─/.test(texts[r - 1]!)) continue;
    let last = r;
    while (last + 1 < texts.length && !isRule(texts[last + 1]!) && /^ {2}/.test(texts[last + 1]!)) last++;
    return { row: r, start: m[0].length, lastRow: last, chromeTop: r - 1 };
  }
  return null;
}

/** Rows rewritten for the core's dialog reader: `› 1.` (the permission's cursor) → `❯ 1.`, same length. */
function normaliseRow(text: string): string {
  return text.includes('›') ? text.replace(/›(?=\s+\d{1,2}\.\s)/u, '❯') : text;
}

/** The column of the inverse cursor cell on the box row, or -1 (no attributes, or not drawn). */
function cursorColumn(layout: ScreenLayout): number {
  const line = layout.screen.lines[layout.boxRow];
  if (!layout.screen.hasAttributes || line?.spans === undefined) return -1;
  let col = 0;
  for (const span of line.spans) {
    if (span.attrs.inverse) return col;
    col += span.text.length;
  }
  return line.cursorAt ?? -1;
}

function readBox(layout: ScreenLayout): PromptBoxReading | null {
  if (layout.boxRow === -1) return null;
  const parts = [layout.texts[layout.boxRow]!.slice(layout.boxContentStart).trim()];
  for (let r = layout.boxRow + 1; r <= layout.boxLastRow; r++) parts.push(layout.texts[r]!.trim());
  // The cursor cell of a typed line is drawn as a space and a zero-width space.
  const text = parts.join('\n').replace(/\u200b/g, '').trim();
  if (text === '') return { text: '', kind: 'empty' };
  if (QWEN_PLACEHOLDERS.some((p) => p.test(text))) {
    // The empty box draws the cursor first, the hint after it; typed words leave the cursor after them.
    const cursor = cursorColumn(layout);
    if (cursor === -1 || cursor <= layout.texts[layout.boxRow]!.indexOf(parts[0]!.slice(0, 1), layout.boxContentStart)) return { text: '', kind: 'placeholder' };
  }
  return { text, kind: 'typed' };
}

/** A running turn's line ends with its cancel hint: `(2s · ↓ 4 tokens · esc to cancel)`. */
const CANCEL_HINT = /\besc to cancel\)/i;
const ABOVE_COMPOSER = 3;
const BOTTOM_WINDOW = 12;

function isWorking(layout: ScreenLayout): boolean {
  const { texts } = layout;
  const end = layout.chromeTop ?? texts.length;
  const window = layout.chromeTop === undefined ? BOTTOM_WINDOW : ABOVE_COMPOSER;
  for (let r = end - 1; r >= Math.max(0, end - window); r--) if (CANCEL_HINT.test(texts[r]!)) return true;
  return false;
}

/** The exit summary `/quit` draws (`Agent powering down. Goodbye!`, the resume hint). */
const EXIT_LINES = /^\s*│\s+(?:Agent powering down\. Goodbye!|To continue this session, run qwen --resume\b|To resume this session: qwen --resume\b)/;

function isExited(layout: ScreenLayout): boolean {
  if (layout.boxRow !== -1) return false;
  for (let r = layout.texts.length - 1; r >= 0; r--) if (EXIT_LINES.test(layout.texts[r]!)) return true;
  return false;
}

/**
 * A turn that ended in an error (`  ✕ [API Error: …]`, `(Press Ctrl+Y to retry)` under it), then
 * an empty composer — which otherwise reads as a finished turn. Read as the last entry of the
 * transcript: walking up from the composer, the first entry found decides; a reply (`✦`), an
 * echoed prompt (`>`) or a tool's box drawn after the error means the error is history.
 */
const ERROR_ENTRY = /^ {0,3}\u2715\s+(\S.*)$/u;
const INFO_ENTRY = /^ {0,3}\u2139\s/u;
const OTHER_ENTRY = /^ {0,3}(?:\u2726|>|[╭╰│])/u;
const ENTRY_ROWS = 8;

function turnError(layout: ScreenLayout): string | null {
  if (layout.boxRow < 0) return null;
  const { texts } = layout;
  let seen = 0;
  for (let r = (layout.chromeTop ?? layout.boxRow) - 1; r >= 0 && seen < ENTRY_ROWS; r--) {
    const text = texts[r]!;
    if (text.trim() === '') continue;
    seen++;
    const m = ERROR_ENTRY.exec(text);
    if (m) return m[1]!.trim();
    if (OTHER_ENTRY.test(text)) return null;
    // An info line or a wrapped continuation (deeper than an entry's indent) is passed over.
    if (INFO_ENTRY.test(text) || /^ {4,}\S/.test(text)) continue;
    return null;
  }
  return null;
}

export const qwenSpec: ScreenProfileSpec = {
  name: 'qwen',
  aliases: ['qwen-code'],
  box: QWEN_BOX,
  blockers: QWEN_BLOCKERS,
  isWorking,
  isExited,
  findBox,
  normaliseRow,
  readBox,
  turnError,
};
