/**
 * Where the live input box is, read from the screen's structure rather than from one exact byte
 * pattern. Every Claude Code version seen draws its input between two horizontal lines: plain
 * `─` rules (2.0 and later, the top one sometimes labelled: `──── ◐ medium`, `── vim ──`) or a
 * rounded frame `╭─…─╮ │ > … │ ╰─…─╯` (1.x). So the box is the first row between the last pair
 * of such lines that starts with a prompt glyph, and it is:
 *   - glyph + U+00A0 (+ text): the live box, as every version draws it;
 *   - the glyph alone: the same empty box after a capture path trimmed the NBSP away (tmux
 *     capture-pane, herdr's trim_end, any row trimmer) — older versions draw it so too;
 *   - glyph + plain space: a menu cursor or an echoed prompt, never the box (DESIGN.md §5).
 * Pairs are tried from the bottom so that status lines drawn with their own rules below the box
 * do not hide it; a menu cursor between a pair ends the search (a dialog has replaced the box).
 */
import { isTrimSpace } from './whitespace.ts';

const RULE = 0x2500; // ─

function skipSpaces(text: string, from: number): number {
  let i = from;
  while (i < text.length && isTrimSpace(text.charCodeAt(i))) i++;
  return i;
}

function runOf(text: string, from: number, code: number): number {
  let i = from;
  while (i < text.length && text.charCodeAt(i) === code) i++;
  return i - from;
}

/** The row minus trailing whitespace of any kind (NBSP included). */
export function trimEndAll(text: string): string {
  let end = text.length;
  while (end > 0 && isTrimSpace(text.charCodeAt(end - 1))) end--;
  return end === text.length ? text : text.slice(0, end);
}

/**
 * A horizontal rule: after leading spaces a run of `─` that is the whole row; or a run at least
 * three long followed by a label (`──── ◐ medium · /effort`); or a short run, a label and a
 * closing run of at least three (`── vim ──────`). Dashed diff frames (U+254C) and `━` are not.
 */
export function isRule(text: string): boolean {
  const start = skipSpaces(text, 0);
  const run = runOf(text, start, RULE);
  if (run === 0) return false;
  const rest = trimEndAll(text);
  if (start + run >= rest.length) return true;
  if (run >= 3) return true;
  let tail = 0;
  for (let i = rest.length - 1; i >= 0 && rest.charCodeAt(i) === RULE; i--) tail++;
  return tail >= 3;
}

/** `╭──…╮` (optionally labelled) or `╰──…╯`: the top or bottom of a rounded frame. */
export function frameEdge(text: string): 'top' | 'bottom' | null {
  const start = skipSpaces(text, 0);
  const first = text[start];
  if (first !== '╭' && first !== '╰') return null;
  if (runOf(text, start + 1, RULE) < 3) return null;
  const last = trimEndAll(text).slice(-1);
  if (first === '╭' && last === '╮') return 'top';
  if (first === '╰' && last === '╯') return 'bottom';
  return null;
}

export type BoxRowKind = 'box' | 'menu' | 'other';

const NUMBERED = /^\d{1,2}[.)][\s\u00a0]/;

/**
 * What a row between two lines is. `start` is the offset just after the glyph's NBSP (box) or
 * the row's end (bare glyph).
 */
export function classifyBoxRow(text: string, glyphs: string, frame: string): { kind: BoxRowKind; start: number } {
  let i = skipSpaces(text, 0);
  while (i < text.length && frame.includes(text[i]!)) i++;
  i = skipSpaces(text, i);
  if (i >= text.length || !glyphs.includes(text[i]!)) return { kind: 'other', start: -1 };
  const after = i + 1;
  const rest = text.slice(after);
  // `❯ 1. Yes`, and the NBSP form a Windows capture showed (`❯\u00a01.\u00a0Yes`)
  if (NUMBERED.test(rest.replace(/^[\s\u00a0]+/, ''))) return { kind: 'menu', start: -1 };
  // The glyph alone, or followed only by whitespace (NBSP, cursor cell) and frame: empty box.
  let j = skipSpaces(text, after);
  while (j < text.length && (frame.includes(text[j]!) || isTrimSpace(text.charCodeAt(j)))) j++;
  if (j >= text.length) return { kind: 'box', start: text.length };
  if (text.charCodeAt(after) === 0xa0) return { kind: 'box', start: after + 1 };
  return { kind: 'menu', start: -1 };
}

/** Indices of the rows that can close a box from above or below, top to bottom. */
export function boxEdges(texts: readonly string[]): number[] {
  const out: number[] = [];
  for (let r = 0; r < texts.length; r++) if (isRule(texts[r]!) || frameEdge(texts[r]!) !== null) out.push(r);
  return out;
}

/** How many edge pairs from the bottom are searched (box, then status lines with rules below). */
const MAX_PAIRS = 4;

/**
 * The live box found by structure: its row and where its content starts, or null. Only the
 * first non-blank row of a pair decides (multi-line input continues below it). 'menu': the last
 * structured pair holds a menu cursor or an echo, so no row elsewhere may pass for the box.
 */
export function structuralBox(texts: readonly string[], glyphs: string, frame: string): { row: number; start: number } | 'menu' | null {
  const edges = boxEdges(texts);
  let tried = 0;
  for (let e = edges.length - 1; e > 0 && tried < MAX_PAIRS; e--, tried++) {
    const top = edges[e - 1]!;
    const bottom = edges[e]!;
    for (let r = top + 1; r < bottom; r++) {
      const text = texts[r]!;
      if (skipSpaces(text, 0) === text.length) continue;
      const { kind, start } = classifyBoxRow(text, glyphs, frame);
      if (kind === 'box') return { row: r, start };
      if (kind === 'menu') {
        const wrapped = wrappedInputStart(texts, r, bottom, glyphs, trimEndAll(texts[bottom]!).length);
        if (wrapped !== -1) return { row: r, start: wrapped };
        return 'menu'; // a dialog has replaced the box
      }
      break; // other content: look at the pair above
    }
  }
  return null;
}

/** How close to the box's width a row must reach to have been wrapped (padding, a last space). */
const WRAP_SLACK = 6;

/**
 * A wrapped input continuing inside the box is the box's text, not a menu (issue 21): the row
 * `❯ text` (a plain space after the glyph: a capture path lost the NBSP) whose text ran to the
 * box's width — the next row's first word would not have fitted on it — and went on in the row
 * under it, aligned under the text. A menu cursor (`❯ Yes` over `  No`) never fills the width.
 * Returns where the text starts, or -1.
 */
export function wrappedInputStart(texts: readonly string[], row: number, bottom: number, glyphs: string, width: number): number {
  const text = texts[row]!;
  const at = skipSpaces(text, 0);
  if (!glyphs.includes(text[at] ?? '') || text[at + 1] !== ' ' || NUMBERED.test(text.slice(at + 2))) return -1;
  const next = texts[row + 1];
  if (row + 1 >= bottom || next === undefined) return -1;
  const column = at + 2;
  if (skipSpaces(next, 0) !== column || /^[❯›>●⏺⎿]/u.test(next.slice(column))) return -1;
  const firstWord = next.slice(column).split(/\s/, 1)[0]!;
  const used = trimEndAll(text).length;
  if (width <= 0 || used + 1 + firstWord.length < width - WRAP_SLACK) return -1;
  // The input goes on to the box's closing rule: a row left of its column, or a transcript entry,
  // before that rule means this was an echoed prompt in the transcript (a real worker's first
  // prompt wraps just the same), not the live box.
  for (let r = row + 2; r < bottom; r++) {
    const t = texts[r]!;
    const lead = skipSpaces(t, 0);
    if (lead === t.length) continue;
    if (lead < column || /^[❯›>●⏺⎿✻✢✶✳✽·]/u.test(t.slice(lead))) return -1;
  }
  return column;
}
