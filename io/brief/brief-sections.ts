/**
 * Reads the shape of a brief the way the dispatcher must: headings inside fenced code blocks
 * do not count (a brief quoting a template would otherwise pass the `## Read first` rule
 * without having the section). Pure: text in, line numbers out.
 */

/** A line that opens or closes a fenced block (control-plane §2.2 step 7). */
const FENCE = /^\s*```/;
const READ_FIRST = /^\s*##\s+Read first\s*$/;
const ANY_HEADING = /^\s*#{1,6}\s/;
const BROWSER_CHECKS = /^\s*##\s+Browser checks\b/;

export interface ReadFirstSection {
  /** Index of the `## Read first` heading line. */
  heading: number;
  /** Index one past the section's last line (the next heading, or the end of the text). */
  end: number;
  /** The section's lines outside fenced blocks, without the heading. */
  lines: string[];
}

export interface BriefShape {
  lines: string[];
  /** The first `## Read first` section outside fences, or null when the brief has none. */
  readFirst: ReadFirstSection | null;
  hasBrowserChecks: boolean;
}

/** Splits on LF or CRLF; the line ending is restored by the composer. */
export function briefLines(text: string): string[] {
  return text.replace(/^\uFEFF/, '').split(/\r?\n/);
}

export function parseBrief(text: string): BriefShape {
  const lines = briefLines(text);
  let fenced = false;
  let readFirst: ReadFirstSection | null = null;
  let open: ReadFirstSection | null = null;
  let hasBrowserChecks = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (FENCE.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    if (ANY_HEADING.test(line)) {
      if (open) {
        open.end = i;
        open = null;
      }
      if (BROWSER_CHECKS.test(line)) hasBrowserChecks = true;
      if (!readFirst && READ_FIRST.test(line)) {
        readFirst = { heading: i, end: lines.length, lines: [] };
        open = readFirst;
      }
      continue;
    }
    if (open) open.lines.push(line);
  }
  return { lines, readFirst, hasBrowserChecks };
}
