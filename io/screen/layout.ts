/**
 * One pass over a Screen that finds what the analysers share: the live input box (if any) and
 * the regions around it. The box decides which text is live: Claude Code unmounts its input
 * while a dialog is up, so text ABOVE a visible box is transcript (in-app scrollback), and a
 * dialog phrase there is history or prose, never a prompt waiting on a person.
 */
import type { PromptBoxSpec, Screen } from './types.ts';

export interface ScreenLayout {
  readonly screen: Screen;
  readonly texts: readonly string[];
  /** Row of the live input box, -1 when none is visible. */
  readonly boxRow: number;
  /** Offset in texts[boxRow] where the box content starts (after the prefix). */
  readonly boxContentStart: number;
  /** Last row of the box content: continuation rows up to the closing rule; = boxRow otherwise. */
  readonly boxLastRow: number;
}

const RULE = 0x2500; // ─

// Predicates are module-level functions, not inline arrows: under tsx every new function object
// is named at runtime, which dominated the cost of a reading.
function isPlainSpace(c: number): boolean {
  return c === 0x20;
}

function isRuleChar(c: number): boolean {
  return c === RULE;
}

/** The whitespace String#trim removes (so NBSP counts, as in the reference's `.trim()`). */
export function isTrimSpace(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function skipWhile(text: string, from: number, accept: (c: number) => boolean): number {
  let i = from;
  while (i < text.length && accept(text.charCodeAt(i))) i++;
  return i;
}

/**
 * A horizontal rule as Claude Code draws it around the box: after leading spaces a run of U+2500
 * that is the whole row, or at least three long and followed by a label (`──── ◐ medium`).
 * Dashed diff frames (U+254C) and `╭─…╮` tops are not rules.
 */
export function isRule(text: string): boolean {
  const start = skipWhile(text, 0, isPlainSpace);
  const end = skipWhile(text, start, isRuleChar);
  const run = end - start;
  if (run === 0) return false;
  return run >= 3 || skipWhile(text, end, isTrimSpace) === text.length;
}

/**
 * Where the box content starts on `text`, or -1 when the row is not the live box.
 * Shape (control-plane §3.4): whitespace, frame chars, whitespace, then the prefix. A caret with a
 * plain space, a caret deeper in the row, or a row starting with `>` never qualifies.
 */
export function boxContentStart(text: string, box: PromptBoxSpec): number {
  if (text.indexOf(box.prefix) === -1) return -1;
  let i = skipWhile(text, 0, isTrimSpace);
  while (i < text.length && box.frame.includes(text[i]!)) i++;
  i = skipWhile(text, i, isTrimSpace);
  return text.startsWith(box.prefix, i) ? i + box.prefix.length : -1;
}

export function layoutScreen(screen: Screen, box: PromptBoxSpec): ScreenLayout {
  const texts: string[] = new Array<string>(screen.lines.length);
  for (let r = 0; r < texts.length; r++) texts[r] = screen.lines[r]!.text;
  let boxRow = -1;
  let start = -1;
  // First match top-down, as the reference reads it.
  for (let r = 0; r < texts.length; r++) {
    start = boxContentStart(texts[r]!, box);
    if (start !== -1) {
      boxRow = r;
      break;
    }
  }
  let boxLastRow = boxRow;
  if (boxRow !== -1) {
    // A multi-line input continues until the closing rule; with no rule below we cannot tell
    // where the box ends, so only its first row counts.
    for (let r = boxRow + 1; r < texts.length; r++) {
      if (isRule(texts[r]!)) {
        boxLastRow = r - 1;
        break;
      }
    }
  }
  return { screen, texts, boxRow, boxContentStart: start, boxLastRow };
}

/** Rows that can hold a live dialog or footer: below the box when one is visible, else all. */
export function liveRows(layout: ScreenLayout): readonly string[] {
  return layout.boxRow === -1 ? layout.texts : layout.texts.slice(layout.boxLastRow + 1);
}

/** The last `n` non-blank rows before row `end` (exclusive), rules left out, top to bottom. */
export function lastRowsBefore(layout: ScreenLayout, end: number, n: number): string[] {
  const out: string[] = [];
  for (let r = Math.min(end, layout.texts.length) - 1; r >= 0 && out.length < n; r--) {
    const text = layout.texts[r]!;
    if (skipWhile(text, 0, isTrimSpace) === text.length || isRule(text)) continue;
    out.push(text);
  }
  return out.reverse();
}

/** Index of the last non-blank row, -1 for a blank screen. */
export function lastNonBlankRow(layout: ScreenLayout): number {
  for (let r = layout.texts.length - 1; r >= 0; r--) {
    const text = layout.texts[r]!;
    if (skipWhile(text, 0, isTrimSpace) !== text.length) return r;
  }
  return -1;
}
