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
import { isTrimSpace } from './layout.ts';

// A module-local binding for the per-character loop: under tsx an imported function can be
// reached through an export getter on every call, which profiled as the largest single cost.
const isSpace = isTrimSpace;

const VOLATILE: readonly RegExp[] = [
  /\x1b\[[0-9;?]*[a-zA-Z]/gi, // ANSI CSI, in case a reader ever stops stripping them
  /\b\d+h\s*\d*\s*m\b/gi, // 1h 4m
  /\b\d+m\s*\d*\s*s\b/gi, // 3m 20s
  /\b\d+(\.\d+)?\s*s\b/gi, // 47s
  /\b\d+(\.\d+)?[kKmM]?\s*tokens?\b/gi, // 1.4k tokens
  /[✦✳✹✻✽∗·∙●○\u2800-\u28ff✢✶]/gi, // spinner glyphs (+ ✢ ✶, see above)
  /^([ \t]*)\*(?=\s)/gm, // the `*` spinner frame at a line start (extension)
];

/**
 * A character every match of VOLATILE[k] must contain; when the text lacks it the pass is
 * skipped (same result, less work — this runs on every terminal update).
 */
const REQUIRED: readonly (RegExp | string | null)[] = ['\x1b', /\d/, /\d/, /\d/, /\d/, null, '*'];

function mayMatch(text: string, k: number): boolean {
  const needle = REQUIRED[k];
  if (needle === null || needle === undefined) return true;
  return typeof needle === 'string' ? text.includes(needle) : needle.test(text);
}

/** `line` with whitespace runs (JS `\s`, which is String#trim's set) collapsed to one space, trimmed. */
export function collapseWhitespace(line: string): string {
  const n = line.length;
  let i = 0;
  while (i < n && isSpace(line.charCodeAt(i))) i++;
  let out = '';
  let start = i;
  while (i < n) {
    const c = line.charCodeAt(i);
    if (!isSpace(c)) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && isSpace(line.charCodeAt(j))) j++;
    if (j === n) return out + line.slice(start, i);
    if (j - i > 1 || c !== 0x20) {
      out += `${line.slice(start, i)} `;
      start = j;
    }
    i = j;
  }
  return out + line.slice(start);
}

/**
 * The volatile shapes of VOLATILE stripped from `text` (rows joined with \n), each match replaced
 * by one space, in order. Lines are not yet collapsed: see collapseRows.
 */
export function stripVolatile(text: string): string {
  let out = text;
  for (let k = 0; k < VOLATILE.length; k++) {
    if (mayMatch(out, k)) out = out.replace(VOLATILE[k]!, ' ');
  }
  return out;
}

/** Each line collapsed and trimmed, empty ones dropped (appended to `out`, top to bottom). */
export function collapseRows(lines: readonly string[], out: string[] = []): string[] {
  for (let i = 0; i < lines.length; i++) {
    const collapsed = collapseWhitespace(lines[i]!);
    if (collapsed !== '') out.push(collapsed);
  }
  return out;
}

/** The texts of `screen`'s rows, top to bottom. */
export function rowTexts(screen: Screen): string[] {
  const rows: string[] = new Array<string>(screen.lines.length);
  for (let r = 0; r < rows.length; r++) rows[r] = screen.lines[r]!.text;
  return rows;
}

/** The screen's text as normalised, non-empty lines, top to bottom. */
export function normaliseScreen(screen: Screen): string[] {
  // Splitting on \n alone equals the reference's \r?\n: a leftover \r is whitespace and is trimmed.
  return collapseRows(stripVolatile(rowTexts(screen).join('\n')).split('\n'));
}
