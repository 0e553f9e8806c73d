/**
 * Screens for the issue-21 reader rules, built from real captures: take a real idle, finished,
 * error or exit screen and change only what the class needs (rows inserted above the turn end,
 * the dead-pane line removed, the box rows replaced), then redraw it at another terminal size.
 */
import { parseAnsi, parsePlain, type Screen } from '../../io/screen/index.ts';
import { fixtureText } from './helpers.ts';

const RULE_ROW = /^\s*─{8,}\s*$/;

/** The capture's rows (plain), trailing blank rows kept so the size stays the capture's. */
export function rowsOf(relative: string): string[] {
  return fixtureText(relative).replace(/\n$/, '').split('\n');
}

/** Index of the first row `test` accepts; throws so a test never builds on a missing anchor. */
export function rowWhere(rows: readonly string[], test: (row: string) => boolean): number {
  const at = rows.findIndex(test);
  if (at === -1) throw new Error('anchor row not found in the capture');
  return at;
}

/** Index of the last row `test` accepts; throws when none does. */
export function lastRowWhere(rows: readonly string[], test: (row: string) => boolean): number {
  for (let r = rows.length - 1; r >= 0; r--) if (test(rows[r]!)) return r;
  throw new Error('anchor row not found in the capture');
}

/** `add` inserted before row `at`; as many rows dropped from the top, so the height is kept. */
export function insertAbove(rows: readonly string[], at: number, add: readonly string[]): string[] {
  return [...rows.slice(0, at), ...add, ...rows.slice(at)].slice(add.length);
}

/** Rows `from..to` (inclusive) replaced by `add`, the height kept by blank rows or top rows. */
export function replaceRows(rows: readonly string[], from: number, to: number, add: readonly string[]): string[] {
  const out = [...rows.slice(0, from), ...add, ...rows.slice(to + 1)];
  while (out.length < rows.length) out.unshift('');
  return out.slice(out.length - rows.length);
}

/**
 * The same screen at `cols`×`height`: rules redrawn to the width, other rows cut to it, the
 * last `height` rows up to the last non-blank one kept (a terminal shows the newest rows), blank
 * rows added below if short.
 */
export function atSize(rows: readonly string[], cols: number, height: number): string[] {
  const out = rows.map((row) => (RULE_ROW.test(row) ? '─'.repeat(cols) : [...row].slice(0, cols).join('')));
  // the classic renderer draws inline: its content ends where the blank rows under it start
  while (out.length > 0 && out[out.length - 1]!.trim() === '') out.pop();
  // the fullscreen renderer pads between transcript and box: a shorter screen has less padding
  const packed = out.filter((row, r) => row.trim() !== '' || r === 0 || out[r - 1]!.trim() !== '');
  const shown = packed.slice(Math.max(0, packed.length - height));
  while (shown.length < height) shown.push('');
  return shown;
}

export const SIZES: readonly (readonly [number, number])[] = [[120, 40], [80, 24], [200, 50]];

export function plainScreen(rows: readonly string[], cols = 120): Screen {
  return parsePlain(rows.join('\n'), { cols, rows: rows.length });
}

export function ansiScreen(text: string): Screen {
  return parseAnsi(text);
}
