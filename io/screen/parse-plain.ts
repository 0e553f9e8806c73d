/**
 * A Screen from a plain capture (`tmux capture-pane -p`): text only, no attributes.
 */
import type { Screen, ScreenRow } from './types.ts';
import { keepBottom, splitCaptureLines, trimSpacesEnd, widestRow } from './row-trim.ts';

export interface ParseOptions {
  /** Pane width; defaults to the widest row (a capture trims trailing blanks, so it may be less). */
  cols?: number;
  /** Pane height; when the text holds more lines, only the bottom `rows` are the viewport. */
  rows?: number;
}

export function parsePlain(text: string, opts: ParseOptions = {}): Screen {
  const raw = keepBottom(splitCaptureLines(text), opts.rows);
  const lines: ScreenRow[] = new Array<ScreenRow>(raw.length);
  for (let r = 0; r < raw.length; r++) lines[r] = { text: trimSpacesEnd(raw[r]!) };
  return {
    cols: opts.cols ?? widestRow(lines),
    rows: opts.rows ?? lines.length,
    lines,
    hasAttributes: false,
  };
}
