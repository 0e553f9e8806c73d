/**
 * The narrow normalisation behind the progress fingerprint (control-plane §3.6): strip only
 * what repaints while nothing happens — escapes, timers, token counters, spinner glyphs — and
 * keep every other digit, so `142/300` → `143/300` still reads as progress. The bias is to miss
 * a stall rather than invent one.
 *
 * The six reference shapes are applied in the reference's order, case-insensitive, each
 * replaced by one space. One knowing extension: Claude Code 2.1.332 animates its spinner through
 * `· ✢ * ✶ ✻ ✽` (claude-code.md §6.3), and ✢ (U+2722), ✶ (U+2736) and a line-leading `*` are not
 * in the reference class; without them a hung turn's spinner frames would read as progress and
 * a stall could never be seen.
 */
import type { Screen } from './types.ts';

// The shapes, in the reference's order. Every pass replaces each match with one space.
const CSI = /\x1b\[[0-9;?]*[a-zA-Z]/gi; // ANSI CSI, in case a reader ever stops stripping them
const TIMERS_AND_TOKENS: readonly RegExp[] = [
  /\b\d+h\s*\d*\s*m\b/gi, // 1h 4m
  /\b\d+m\s*\d*\s*s\b/gi, // 3m 20s
  /\b\d+(\.\d+)?\s*s\b/gi, // 47s
  /\b\d+(\.\d+)?[kKmM]?\s*tokens?\b/gi, // 1.4k tokens
];
const SPINNER_GLYPHS = /[✦✳✹✻✽∗·∙●○\u2800-\u28ff✢✶]/gi; // (+ ✢ ✶, see above)
const STAR_FRAME = /^([ \t]*)\*(?=\s)/gm; // the `*` spinner frame at a line start (extension)
const DIGIT = /\d/;

/**
 * Whitespace (JS `\s`, the set String#trim removes) the collapse must rewrite to one space: a run
 * of two or more, or a single character other than U+0020. Never a \n, so rows stay rows. One
 * replace over the whole text: only the runs that change are touched, and the regex engine scans
 * faster than a per-character loop.
 */
const UNCOLLAPSED = /[^\S\n]{2,}|[^\S \n]/g;

/**
 * `text` (rows joined with \n) with the volatile shapes stripped, in order. A pass is skipped
 * when the text lacks a character every match of it contains (same result, less work — this
 * runs on every terminal update): ESC for CSI, a digit for the four timer and token shapes (no
 * pass adds a digit, so one test covers all four), `*` for the star frame.
 */
export function stripVolatile(text: string): string {
  let out = text.includes('\x1b') ? text.replace(CSI, ' ') : text;
  if (DIGIT.test(out)) {
    for (let k = 0; k < TIMERS_AND_TOKENS.length; k++) out = out.replace(TIMERS_AND_TOKENS[k]!, ' ');
  }
  out = out.replace(SPINNER_GLYPHS, ' ');
  return out.includes('*') ? out.replace(STAR_FRAME, ' ') : out;
}

/**
 * `text` stripped and split into its lines, whitespace runs collapsed to one space but not yet
 * trimmed: one segment per \n-separated line of the stripped text (a match can join two rows).
 * Splitting on \n alone equals the reference's \r?\n: a leftover \r is whitespace and is trimmed.
 */
export function normalisedSegments(text: string): string[] {
  return stripVolatile(text).replace(UNCOLLAPSED, ' ').split('\n');
}

/** The segments trimmed, empty ones dropped: the normalised lines, top to bottom. */
export function trimmedLines(segments: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const line = segments[i]!.trim();
    if (line !== '') out.push(line);
  }
  return out;
}

/** The texts of `screen`'s rows, top to bottom. */
function rowTexts(screen: Screen): string[] {
  const rows: string[] = new Array<string>(screen.lines.length);
  for (let r = 0; r < rows.length; r++) rows[r] = screen.lines[r]!.text;
  return rows;
}

/** The screen's text as normalised, non-empty lines, top to bottom. */
export function normaliseScreen(screen: Screen): string[] {
  return trimmedLines(normalisedSegments(rowTexts(screen).join('\n')));
}
