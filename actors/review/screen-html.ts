/**
 * A worker's visible screen as HTML: the spans the terminal hosts already give (tmux
 * `capture-pane -e` through io/screen's SGR parser, or xterm cells) become <span>s with the
 * same colours. Read-only: nothing here can reach the pane. Every character is escaped.
 */
import type { CellAttributes, Screen } from '../../io/screen/types.ts';
import { esc } from './html.ts';

/** xterm's default 16-colour palette (a dark theme), indexed 0-15. */
const BASE16 = [
  '#000000', '#cd3131', '#0dbc79', '#e5e510', '#2472c8', '#bc3fbc', '#11a8cd', '#e5e5e5',
  '#666666', '#f14c4c', '#23d18b', '#f5f543', '#3b8eea', '#d670d6', '#29b8db', '#ffffff',
];

function hex(n: number): string {
  return Math.max(0, Math.min(255, n)).toString(16).padStart(2, '0');
}

/** Entry n of the xterm 256-colour palette. */
export function paletteColour(n: number): string {
  if (n < 16) return BASE16[n]!;
  if (n < 232) {
    const i = n - 16;
    const level = (v: number) => (v === 0 ? 0 : 55 + v * 40);
    return `#${hex(level(Math.floor(i / 36)))}${hex(level(Math.floor(i / 6) % 6))}${hex(level(i % 6))}`;
  }
  const g = 8 + (n - 232) * 10;
  return `#${hex(g)}${hex(g)}${hex(g)}`;
}

/**
 * A colour as io/screen keeps it ("31", "97", "38;5;244", "48;2;1;2;3", or the ITU "38:2::1:2:3")
 * as CSS, or null for anything it cannot place (then the default colour shows).
 */
export function sgrColour(sgr: string | undefined): string | null {
  if (!sgr) return null;
  const parts = sgr.split(/[;:]/).map((p) => (p === '' ? NaN : Number(p)));
  const [base] = parts;
  if (base === undefined || Number.isNaN(base)) return null;
  if (base >= 30 && base <= 37) return BASE16[base - 30]!;
  if (base >= 40 && base <= 47) return BASE16[base - 40]!;
  if (base >= 90 && base <= 97) return BASE16[base - 90 + 8]!;
  if (base >= 100 && base <= 107) return BASE16[base - 100 + 8]!;
  if (base === 38 || base === 48) {
    const nums = parts.slice(1).filter((p) => !Number.isNaN(p));
    if (nums[0] === 5 && nums[1] !== undefined && nums[1] <= 255) return paletteColour(nums[1]);
    if (nums[0] === 2 && nums.length >= 4) {
      const [r, g, b] = nums.slice(-3) as [number, number, number];
      return `#${hex(r)}${hex(g)}${hex(b)}`;
    }
  }
  return null;
}

function spanStyle(a: CellAttributes): { cls: string; style: string } {
  let fg = sgrColour(a.fg);
  let bg = sgrColour(a.bg);
  const cls: string[] = [];
  if (a.inverse) {
    [fg, bg] = [bg ?? 'var(--term-bg)', fg ?? 'var(--term-fg)'];
  }
  if (a.bold) cls.push('b');
  if (a.dim) cls.push('d');
  if (a.italic) cls.push('i');
  if (a.underline) cls.push('u');
  const style = [fg ? `color:${fg}` : '', bg ? `background:${bg}` : ''].filter(Boolean).join(';');
  return { cls: cls.join(' '), style };
}

/** The screen as the inner HTML of a <pre>: one line per row, coloured where the capture had colours. */
export function screenHtml(screen: Screen): string {
  const rows: string[] = [];
  for (let i = 0; i < screen.rows; i++) {
    const row = screen.lines[i];
    if (!row) {
      rows.push('');
      continue;
    }
    if (!row.spans || row.spans.length === 0) {
      rows.push(esc(row.text));
      continue;
    }
    rows.push(
      row.spans
        .map((s) => {
          const { cls, style } = spanStyle(s.attrs);
          if (!cls && !style) return esc(s.text);
          return `<span${cls ? ` class="${cls}"` : ''}${style ? ` style="${style}"` : ''}>${esc(s.text)}</span>`;
        })
        .join(''),
    );
  }
  // Trailing blank rows carry nothing to read.
  while (rows.length > 0 && rows[rows.length - 1] === '') rows.pop();
  return rows.join('\n');
}
