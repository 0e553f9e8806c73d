/**
 * Right-trimming of screen rows. Only U+0020 is removed: the live input box of Claude Code is
 * `❯` + U+00A0, and when the box is empty the NBSP is the last character of the row. A trim
 * that also ate U+00A0 (String#trimEnd does) would turn the empty box into a bare `❯` that no
 * longer tells itself apart from other carets.
 */
import type { ScreenRow, Span } from './types.ts';

const SPACE = 0x20;

/** `text` without its trailing plain spaces. */
export function trimSpacesEnd(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === SPACE) end--;
  return end === text.length ? text : text.slice(0, end);
}

/**
 * Cuts spans so that their texts add up to exactly `length` characters (the trimmed row),
 * dropping spans that became empty. Spans are shared objects: only the cut one is copied.
 */
export function cutSpans(spans: readonly Span[], length: number): Span[] {
  const out: Span[] = [];
  let used = 0;
  for (const span of spans) {
    if (used >= length) break;
    const room = length - used;
    if (span.text.length <= room) {
      if (span.text.length > 0) out.push(span);
      used += span.text.length;
    } else {
      out.push({ text: span.text.slice(0, room), attrs: span.attrs });
      used = length;
    }
  }
  return out;
}

/** Offset of the first inverse span starting at or after `from` (in the trimmed-away tail), or null. */
function inverseFrom(spans: readonly Span[], from: number): number | null {
  let offset = 0;
  for (const span of spans) {
    if (offset >= from && span.attrs.inverse && span.text.length > 0) return offset;
    offset += span.text.length;
  }
  return null;
}

/** A row right-trimmed of U+0020, its spans (if any) cut to the same length. */
export function trimRow(row: ScreenRow): ScreenRow {
  const text = trimSpacesEnd(row.text);
  if (row.spans === undefined) return text === row.text ? row : { text };
  const trimmed: ScreenRow = { text, spans: cutSpans(row.spans, text.length) };
  const cursorAt = text.length === row.text.length ? null : inverseFrom(row.spans, text.length);
  if (cursorAt !== null) trimmed.cursorAt = cursorAt;
  return trimmed;
}

/** Lines of a capture: split on \r?\n, without the empty element after a final newline. */
export function splitCaptureLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.charCodeAt(line.length - 1) === 0x0d) lines[i] = line.slice(0, -1);
  }
  return lines;
}

/** Keeps the bottom `rows` entries: a viewport is the bottom of the buffer, never the top. */
export function keepBottom<T>(items: T[], rows: number | undefined): T[] {
  if (rows === undefined || rows < 0 || items.length <= rows) return items;
  return items.slice(items.length - rows);
}

/** Widest row in UTF-16 units (a cheap stand-in for columns; the box glyphs are all BMP). */
export function widestRow(rows: readonly ScreenRow[]): number {
  let widest = 0;
  for (const row of rows) if (row.text.length > widest) widest = row.text.length;
  return widest;
}
