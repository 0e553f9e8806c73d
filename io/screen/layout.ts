/**
 * One pass over a Screen that finds what the analysers share: the live input box (if any) and
 * the regions around it. The box decides which text is live: Claude Code unmounts its input
 * while a dialog is up, so text ABOVE a visible box is transcript (in-app scrollback), and a
 * dialog phrase there is history or prose, never a prompt waiting on a person.
 */
import type { PromptBoxSpec, Screen } from './types.ts';
import { isTrimSpace } from './whitespace.ts';
import { frameEdge, isRule, structuralBox } from './box-structure.ts';

export interface ScreenLayout {
  readonly screen: Screen;
  readonly texts: readonly string[];
  /** Row of the live input box, -1 when none is visible. */
  readonly boxRow: number;
  /** Offset in texts[boxRow] where the box content starts (after the prefix). */
  readonly boxContentStart: number;
  /** Last row of the box content: continuation rows up to the closing rule; = boxRow otherwise. */
  readonly boxLastRow: number;
  /** First row of the input's own chrome above the box (a rule, a mode hint), when a profile knows it. */
  readonly chromeTop?: number;
}

/** Where a profile's live box is, when it does not draw Claude Code's (rows as they are read). */
export interface FoundBox {
  row: number;
  /** Offset in the row where the box content starts. */
  start: number;
  lastRow: number;
  chromeTop?: number;
}

/**
 * A profile's own reading of the layout, for an agent that draws another dialect: its rows
 * rewritten into the core's (a radio cursor `●` into `❯`, same length), and its box found its way.
 */
export interface LayoutHooks {
  normaliseRow?(text: string): string;
  findBox?(texts: readonly string[]): FoundBox | null;
}

// Predicates are module-level functions, not inline arrows: under tsx every new function object
// is named at runtime, which dominated the cost of a reading.
function isPlainSpace(c: number): boolean {
  return c === 0x20;
}

export { isTrimSpace } from './whitespace.ts';

function skipWhile(text: string, from: number, accept: (c: number) => boolean): number {
  let i = from;
  while (i < text.length && accept(text.charCodeAt(i))) i++;
  return i;
}

export { isRule } from './box-structure.ts';

const NUMBERED_OPTION = /^[\s\u00a0]*\d{1,2}[.)][\s\u00a0]/;

/**
 * Where the box content starts on `text`, or -1 when the row is not the live box.
 * Shape (control-plane §3.4): whitespace, frame chars, whitespace, then a glyph + U+00A0. A caret
 * with a plain space, a caret deeper in the row, or a row starting with `> ` never qualifies.
 */
export function boxContentStart(text: string, box: PromptBoxSpec): number {
  if (text.indexOf('\u00A0') === -1) return -1;
  let i = skipWhile(text, 0, isTrimSpace);
  while (i < text.length && box.frame.includes(text[i]!)) i++;
  i = skipWhile(text, i, isTrimSpace);
  // glyph + NBSP, where the glyph is `❯` (or `>` in versions that drew that)
  if (!box.glyphs.includes(text[i] ?? '') || text.charCodeAt(i + 1) !== 0xa0) return -1;
  // A menu cursor drawn with NBSPs (`❯\u00a01.\u00a0Yes`, seen in a Windows capture) is no box.
  return NUMBERED_OPTION.test(text.slice(i + 2)) ? -1 : i + 2;
}

export function layoutScreen(screen: Screen, box: PromptBoxSpec, hooks: LayoutHooks = {}): ScreenLayout {
  const texts: string[] = new Array<string>(screen.lines.length);
  const normalise = hooks.normaliseRow;
  for (let r = 0; r < texts.length; r++) texts[r] = normalise ? normalise(screen.lines[r]!.text) : screen.lines[r]!.text;
  if (hooks.findBox) {
    const own = hooks.findBox(texts);
    if (own === null) return { screen, texts, boxRow: -1, boxContentStart: -1, boxLastRow: -1 };
    return { screen, texts, boxRow: own.row, boxContentStart: own.start, boxLastRow: own.lastRow, ...(own.chromeTop === undefined ? {} : { chromeTop: own.chromeTop }) };
  }
  let boxRow = -1;
  let start = -1;
  // The box by structure first (between the last pair of rules, bare glyph = empty box);
  // without that structure, the first glyph + NBSP row top-down, as the reference reads it.
  const found = box.locate ? box.locate(texts) ?? 'menu' : structuralBox(texts, box.glyphs, box.frame);
  if (found !== null && found !== 'menu') {
    boxRow = found.row;
    start = found.start;
  } else if (found === null) {
    for (let r = 0; r < texts.length; r++) {
      start = boxContentStart(texts[r]!, box);
      if (start !== -1) {
        boxRow = r;
        break;
      }
    }
  }
  let boxLastRow = boxRow;
  if (boxRow !== -1) {
    // A multi-line input continues until the closing rule; with no rule below we cannot tell
    // where the box ends, so only its first row counts.
    for (let r = boxRow + 1; r < texts.length; r++) {
      if (isRule(texts[r]!) || frameEdge(texts[r]!) !== null) {
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
