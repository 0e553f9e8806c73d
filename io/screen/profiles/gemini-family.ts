/**
 * What Gemini CLI and its fork Qwen Code draw alike (their corpora: tests/fixtures/gemini-corpus/,
 * qwen-corpus/), read once for both: the empty box's placeholders and the cursor cell standing
 * before them, the menu and dialog hints, a running turn told by its cancel hint just above the
 * composer, and the exit summary that stands where the composer was. Each reader (gemini.ts,
 * qwen.ts) gives its own words and keeps what differs (its composer, its cursor glyph, its error).
 */
import type { BlockerRule, PromptBoxReading } from '../profile-spec.ts';
import type { ScreenLayout } from '../layout.ts';

/** Placeholders of the empty box both draw (Gemini CLI 0.61.0 InputPrompt, kept by Qwen Code), anchored at both ends. */
export const GEMINI_FAMILY_PLACEHOLDERS: readonly RegExp[] = [
  /^Type your message or @path\/to\/file$/,
  /^Type your shell command$/,
  /^Press 'Esc' for NORMAL mode\.$/,
  /^Press 'i' for INSERT mode\.$/,
];

/** The least specific blockers, last in each reader's list: a menu's and a dialog's hints. */
export const GEMINI_FAMILY_MENUS: readonly BlockerRule[] = [
  { reason: 'menu', anyOf: ['Enter to select', '↑/↓ to navigate', '(Use Enter to select)'] },
  { reason: 'dialog', anyOf: ['Esc to cancel', 'Press Enter to continue'] },
];

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

/**
 * The box's text over its rows, `clean`ed of what the agent draws in it that is not text; a
 * placeholder's words read as empty when the cursor stands before them (the empty box draws the
 * cursor first, the hint after it; typed words leave the cursor after them).
 */
export function readPlaceholderBox(placeholders: readonly RegExp[], clean: (text: string) => string = (t) => t) {
  return (layout: ScreenLayout): PromptBoxReading | null => {
    if (layout.boxRow === -1) return null;
    const parts = [layout.texts[layout.boxRow]!.slice(layout.boxContentStart).trim()];
    for (let r = layout.boxRow + 1; r <= layout.boxLastRow; r++) parts.push(layout.texts[r]!.trim());
    const text = clean(parts.join('\n')).trim();
    if (text === '') return { text: '', kind: 'empty' };
    if (placeholders.some((p) => p.test(text))) {
      const cursor = cursorColumn(layout);
      if (cursor === -1 || cursor <= layout.texts[layout.boxRow]!.indexOf(parts[0]!.slice(0, 1), layout.boxContentStart)) return { text: '', kind: 'placeholder' };
    }
    return { text, kind: 'typed' };
  };
}

/** How far above the composer a running turn's line stands, and how far up from the bottom without one. */
const ABOVE_COMPOSER = 3;
const BOTTOM_WINDOW = 12;

/**
 * A running turn: a line with its `cancelHint` just above the composer (or near the bottom without
 * one). The line is a spinner, a witty phrase of any length and the hint in brackets: a long phrase
 * wraps the hint onto the next row (Qwen Code 0.15.10 under a 120-column pane: `… (0s · ↓ 13 tokens
 * · esc to` over an indented `cancel)`), so a row is also read joined to the one under it.
 */
export function workingByCancelHint(cancelHint: RegExp) {
  return (layout: ScreenLayout): boolean => {
    const { texts } = layout;
    const end = layout.chromeTop ?? texts.length;
    const window = layout.chromeTop === undefined ? BOTTOM_WINDOW : ABOVE_COMPOSER;
    for (let r = end - 1; r >= Math.max(0, end - window); r--) {
      if (cancelHint.test(texts[r]!)) return true;
      if (r + 1 < end && cancelHint.test(`${texts[r]!.trimEnd()} ${texts[r + 1]!.trim()}`)) return true;
    }
    return false;
  };
}

/** Ended: no composer, and one of the exit summary's `lines` on screen. */
export function exitedBySummary(lines: RegExp) {
  return (layout: ScreenLayout): boolean => {
    if (layout.boxRow !== -1) return false;
    for (let r = layout.texts.length - 1; r >= 0; r--) if (lines.test(layout.texts[r]!)) return true;
    return false;
  };
}

/** What one transcript row says, walking up from the composer to a turn's error. */
export type EntryRow =
  /** Chrome or blank: not counted as a row of the transcript. */
  | 'uncounted'
  /** Part of an entry that does not decide (an info line, a wrapped continuation): walk on. */
  | 'pass'
  /** Another entry (a reply, an echoed prompt, a tool's box): whatever error is above it is history. */
  | 'none'
  /** An error entry, with its message. */
  | { error: string };

/** How many transcript rows above the composer are read for the last entry. */
const ENTRY_ROWS = 8;

/**
 * A turn that ended in an error, then an empty composer (which otherwise reads as a finished
 * turn): both print their errors behind `✕ ` and read them as the last entry of the transcript.
 * Walking up from the composer, the first row `row` says decides.
 */
export function turnErrorByLastEntry(row: (text: string) => EntryRow) {
  return (layout: ScreenLayout): string | null => {
    if (layout.boxRow < 0) return null;
    let seen = 0;
    for (let r = (layout.chromeTop ?? layout.boxRow) - 1; r >= 0 && seen < ENTRY_ROWS; r--) {
      const said = row(layout.texts[r]!);
      if (said === 'uncounted') continue;
      seen++;
      if (said === 'none') return null;
      if (said !== 'pass') return said.error;
    }
    return null;
  };
}
