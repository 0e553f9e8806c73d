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
import type { BlockerRule, PromptBoxSpec, ScreenProfileSpec } from '../profile-spec.ts';
import type { FoundBox, ScreenLayout } from '../layout.ts';
import { isRule } from '../box-structure.ts';
import {
  exitedBySummary, GEMINI_FAMILY_MENUS, GEMINI_FAMILY_PLACEHOLDERS, readPlaceholderBox, turnErrorByLastEntry, workingByCancelHint, type EntryRow,
} from './gemini-family.ts';

/** The versions whose captures the reader is scored on (tests/fixtures/qwen-corpus/), oldest first. */
export const QWEN_CORPUS_VERSIONS: readonly string[] = ['0.15.6', '0.15.10'];

/** Placeholders of the empty box: Gemini CLI's, without its `(Esc to exit)` one. */
export const QWEN_PLACEHOLDERS: readonly RegExp[] = GEMINI_FAMILY_PLACEHOLDERS;

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
  ...GEMINI_FAMILY_MENUS,
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

/** The box's text; the cursor cell of a typed line is drawn as a space and a zero-width space. */
const readBox = readPlaceholderBox(QWEN_PLACEHOLDERS, (text) => text.replace(/\u200b/g, ''));

/** A running turn's line ends with its cancel hint: `(2s · ↓ 4 tokens · esc to cancel)`. */
const isWorking = workingByCancelHint(/\besc to cancel\)/i);

/** The exit summary `/quit` draws (`Agent powering down. Goodbye!`, the resume hint). */
const isExited = exitedBySummary(/^\s*│\s+(?:Agent powering down\. Goodbye!|To continue this session, run qwen --resume\b|To resume this session: qwen --resume\b)/);

/**
 * A turn that ended in an error (`  ✕ [API Error: …]`, `(Press Ctrl+Y to retry)` under it), then
 * an empty composer — which otherwise reads as a finished turn. Read as the last entry of the
 * transcript: walking up from the composer, the first entry found decides; a reply (`✦`), an
 * echoed prompt (`>`) or a tool's box drawn after the error means the error is history.
 */
const ERROR_ENTRY = /^ {0,3}\u2715\s+(\S.*)$/u;
const INFO_ENTRY = /^ {0,3}\u2139\s/u;
const OTHER_ENTRY = /^ {0,3}(?:\u2726|>|[╭╰│])/u;

const turnError = turnErrorByLastEntry((text): EntryRow => {
  if (text.trim() === '') return 'uncounted';
  const m = ERROR_ENTRY.exec(text);
  if (m) return { error: m[1]!.trim() };
  if (OTHER_ENTRY.test(text)) return 'none';
  // An info line or a wrapped continuation (deeper than an entry's indent) is passed over; any other row decides: none.
  return INFO_ENTRY.test(text) || /^ {4,}\S/.test(text) ? 'pass' : 'none';
});

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
