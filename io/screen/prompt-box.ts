/**
 * The live input box: its text and what kind of text it is.
 *
 * Why the kind matters (control-plane §3.4, claude-code.md §6.8): between turns Claude Code can
 * draw a generated prompt suggestion into the empty box, and a bare Enter submits it under the
 * supervisor's name. In a plain capture a suggestion looks exactly like typed text; only the SGR
 * attributes show it (first letter under the inverse cursor, the rest dim). Either way the box is
 * non-empty and a send must refuse — the kind only says why.
 */
import type { Span } from './types.ts';
import type { PromptBoxReading, PromptBoxSpec } from './profile-spec.ts';
import { isTrimSpace, type ScreenLayout } from './layout.ts';

/** Trims whitespace and frame characters from both ends, as the reference does. */
function trimFrame(text: string, frame: string): string {
  let s = text.trim();
  let a = 0;
  let b = s.length;
  while (a < b && frame.includes(s[a]!)) a++;
  while (b > a && frame.includes(s[b - 1]!)) b--;
  if (a !== 0 || b !== s.length) s = s.slice(a, b).trim();
  return s;
}

export function isPlaceholder(text: string, spec: PromptBoxSpec): boolean {
  for (const pattern of spec.placeholders) if (pattern.test(text)) return true;
  return false;
}

/**
 * A foreground that is a mid grey: bright black (`90`), the 256-colour greys a hint is drawn in
 * (`38;5;8`, `38;5;238`–`38;5;250`), or a true colour with equal channels in that range. Claude
 * Code 1.0.0 drew its empty-box hint in `38;5;246` instead of dim; typed text is the default
 * colour in every version seen.
 */
export function isGreyForeground(fg: string | undefined): boolean {
  if (fg === undefined) return false;
  if (fg === '90') return true;
  if (fg.startsWith('38;5;')) {
    const n = Number(fg.slice(5));
    return n === 8 || (n >= 238 && n <= 250);
  }
  if (fg.startsWith('38;2;')) {
    const [r, g, b] = fg.slice(5).split(';').map(Number) as [number, number, number];
    return Math.max(r, g, b) - Math.min(r, g, b) <= 10 && r >= 0x44 && r <= 0xbc;
  }
  return false;
}

/** Counts the non-blank characters from `from` on: under the cursor, muted (dim or grey), and neither. */
function tally(spans: readonly Span[], from: number, acc: { dim: number; plain: number }): void {
  let offset = 0;
  for (const span of spans) {
    const end = offset + span.text.length;
    if (end > from && !span.attrs.inverse) {
      // One span, one set of attributes: muted or not is asked once, not per character.
      const muted = span.attrs.dim === true || isGreyForeground(span.attrs.fg);
      for (let k = Math.max(0, from - offset); k < span.text.length; k++) {
        if (isTrimSpace(span.text.charCodeAt(k))) continue;
        if (muted) acc.dim++;
        else acc.plain++;
      }
    }
    offset = end;
  }
}

/**
 * A suggestion is text drawn muted (dim, or in a grey) apart from the cell under the (inverse) cursor. Without
 * attributes nothing can be told apart, so the text counts as typed — the safe reading.
 */
function looksSuggested(layout: ScreenLayout): boolean {
  if (!layout.screen.hasAttributes) return false;
  const acc = { dim: 0, plain: 0 };
  for (let r = layout.boxRow; r <= layout.boxLastRow; r++) {
    const spans = layout.screen.lines[r]?.spans;
    if (spans === undefined) return false;
    tally(spans, r === layout.boxRow ? layout.boxContentStart : 0, acc);
  }
  return acc.dim > 0 && acc.plain === 0;
}

/**
 * How many cells the app's own cursor (the inverse cell Claude Code draws) stands after the start
 * of an otherwise blank box: typed spaces. 0 without attributes (a plain capture cannot tell) or
 * when no cursor cell is drawn on the box's first row.
 */
function blanksBeforeCursor(layout: ScreenLayout): number {
  if (!layout.screen.hasAttributes || layout.boxLastRow !== layout.boxRow) return 0;
  const cursorAt = layout.screen.lines[layout.boxRow]?.cursorAt;
  return cursorAt === undefined ? 0 : Math.max(0, cursorAt - layout.boxContentStart);
}

/** The box text of a laid-out screen, or null when no live box is visible. */
export function readBox(layout: ScreenLayout, spec: PromptBoxSpec): PromptBoxReading | null {
  if (layout.boxRow === -1) return null;
  const parts: string[] = [trimFrame(layout.texts[layout.boxRow]!.slice(layout.boxContentStart), spec.frame)];
  for (let r = layout.boxRow + 1; r <= layout.boxLastRow; r++) parts.push(trimFrame(layout.texts[r]!, spec.frame));
  while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  const text = parts.length === 1 ? parts[0]! : parts.join('\n');
  if (text === '') {
    const blanks = blanksBeforeCursor(layout);
    // Blanks typed into the box read as an empty box in plain text; /exit typed after them is a
    // prompt, not the command. The app's cursor cell shows them: they are typed text.
    if (blanks > 0) return { text: ' '.repeat(blanks), kind: 'typed' };
    return { text: '', kind: 'empty' };
  }
  const hint = looksSuggested(layout);
  // A named hint is the empty box, drawn as the empty box draws one (cursor at the start, the
  // rest dim). With attributes, the same words drawn plain were typed by someone: typed.
  if (isPlaceholder(text, spec) && (hint || !layout.screen.hasAttributes)) return { text: '', kind: 'placeholder' };
  return { text, kind: hint ? 'suggestion' : 'typed' };
}
