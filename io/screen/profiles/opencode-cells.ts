/**
 * Reading OpenCode's cells by colour: its panels differ only in how their bar and background are
 * coloured (an error's red bar, a prompt's bar in the agent's colour), never in words.
 */
import type { ScreenRow } from '../types.ts';

/** SGR colour text (`31`, `91`, `38;5;196`, `38;2;r;g;b`) → whether it is a red. */
export function isRed(sgr: string): boolean {
  if (sgr === '31' || sgr === '91') return true;
  const parts = sgr.split(';').map(Number);
  if (parts[1] === 2 && parts.length >= 5) {
    const [r, g, b] = [parts[2]!, parts[3]!, parts[4]!];
    return r >= 150 && g < r * 0.6 && b < r * 0.6;
  }
  if (parts[1] === 5) {
    const n = parts[2]!;
    if (n === 1 || n === 9) return true;
    if (n >= 16 && n <= 231) {
      const c = n - 16;
      const [r, g, b] = [Math.floor(c / 36), Math.floor(c / 6) % 6, c % 6];
      return r >= 3 && g <= r - 2 && b <= r - 2;
    }
  }
  return false;
}

/** The attributes of the cell at column `col` of `line` (spans are in UTF-16 offsets), or null. */
export function attrsAt(line: ScreenRow, col: number): { fg?: string; bg?: string } | null {
  if (col < 0 || line.spans === undefined) return null;
  let at = 0;
  for (const span of line.spans) {
    if (col < at + span.text.length) return span.attrs;
    at += span.text.length;
  }
  return null;
}
