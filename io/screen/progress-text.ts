/**
 * The two normalised views one reading carries — the fingerprint body (every row) and the
 * last-activity lines (the transcript above the live box) — from ONE run of the volatile-text
 * regexes. Running normaliseScreen twice, once per view, was half the cost of a reading.
 *
 * Why the transcript view can be cut out of the whole-screen run: the regexes see the rows
 * joined with \n, and a match can only read differently in the shorter text (rows 0..cut-1)
 * than in the whole one where it touches the row boundary the shorter text ends on. So:
 *   - if no match consumed a \n (the stripped text still has one segment per row), every row
 *     above the last one of the transcript stripped exactly as it would have on its own text
 *     and its segment of the whole-screen run is reused;
 *   - the transcript's last row ends the shorter text, where `(?=\s)` (the line-leading `*`
 *     spinner frame) no longer sees a \n after it, so that one row is stripped again alone;
 *   - if some match did join two rows (a timer split across lines, `5` / `s`), or a row holds a
 *     \n itself, the transcript is normalised from scratch as before.
 * tests/screen/one-normalisation-pass-reads-like-two.property.test.ts holds both paths equal.
 */
import { normalisedSegments, trimmedLines } from './normalise.ts';
import { LAST_ACTIVITY_LINES, lastActivityOf } from './last-activity.ts';

/** Box-drawing rules and frames carry no news for a person. */
export const FRAME_ONLY = /^[\u2500-\u257f\s]*$/;

export interface ProgressText {
  /** The whole screen normalised: the fingerprint body. */
  lines: string[];
  /** The last activity lines of rows [0, cut), frame-only lines left out, joined with ' | '. */
  lastActivity: string;
}

/** Keeps `line` (already normalised) in `out` unless it is frame-only; true once `out` is full. */
function keep(line: string, out: string[]): boolean {
  if (!FRAME_ONLY.test(line)) out.push(line);
  return out.length === LAST_ACTIVITY_LINES;
}

/** The last activity of already-normalised lines, read from the bottom up. */
function lastActivityOfLines(lines: readonly string[]): string {
  const out: string[] = [];
  for (let i = lines.length - 1; i >= 0; i--) if (keep(lines[i]!, out)) break;
  return out.reverse().join(' | ');
}

/** True when `segments` (of the whole screen) are the rows of `texts`, one each. */
function rowsIntact(texts: readonly string[], segments: readonly string[]): boolean {
  if (segments.length !== texts.length) return false;
  for (let r = 0; r < texts.length; r++) if (texts[r]!.includes('\n')) return false;
  return true;
}

/** Last activity of rows [0, cut), 0 < cut < texts.length, reusing the whole-screen segments. */
function transcriptActivity(texts: readonly string[], segments: readonly string[], cut: number): string {
  const out: string[] = [];
  // The row holds no \n (rowsIntact), so it is one segment.
  const last = normalisedSegments(texts[cut - 1]!)[0]!.trim();
  if (last !== '' && keep(last, out)) return out.reverse().join(' | ');
  for (let r = cut - 2; r >= 0; r--) {
    const line = segments[r]!.trim();
    if (line !== '' && keep(line, out)) break;
  }
  return out.reverse().join(' | ');
}

/** The transcript normalised on its own: the reference path, for screens the fast one cannot take. */
function transcriptActivitySlow(texts: readonly string[], cut: number): string {
  const lines = trimmedLines(normalisedSegments(texts.slice(0, cut).join('\n')));
  return lastActivityOf(lines.filter((l) => !FRAME_ONLY.test(l)));
}

/**
 * Both views of the rows `texts`; the transcript is rows [0, cut) (cut = texts.length for the
 * whole screen).
 */
export function progressText(texts: readonly string[], cut: number): ProgressText {
  const segments = normalisedSegments(texts.join('\n'));
  const lines = trimmedLines(segments);
  let lastActivity: string;
  if (cut >= texts.length) lastActivity = lastActivityOfLines(lines);
  else if (cut <= 0) lastActivity = '';
  else if (rowsIntact(texts, segments)) lastActivity = transcriptActivity(texts, segments, cut);
  else lastActivity = transcriptActivitySlow(texts, cut);
  return { lines, lastActivity };
}
