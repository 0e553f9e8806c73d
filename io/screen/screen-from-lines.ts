/**
 * A Screen from rows a terminal host built itself (xterm cells, herdr text). xterm's
 * `translateToString(true)` keeps cells that were written as spaces (claude-code.md §8.3: the
 * idle box reads `❯`+U+00A0+U+0020, transcript prompts are padded to full width), so rows are
 * right-trimmed of U+0020 here exactly as the capture parsers do.
 */
import type { Screen, ScreenRow } from './types.ts';
import { keepBottom, trimRow } from './row-trim.ts';

export function screenFromLines(lines: ScreenRow[], cols: number, rows: number): Screen {
  const visible = keepBottom(lines, rows).map(trimRow);
  return {
    cols,
    rows,
    lines: visible,
    hasAttributes: visible.some((row) => row.spans !== undefined),
  };
}
