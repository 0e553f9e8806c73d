/**
 * The screen model of the pty host: an @xterm/headless terminal (Unicode 11 widths) and the
 * conversion of its visible viewport, with cell attributes, into our Screen.
 *
 * @xterm/headless 6.0 is CommonJS without an exports map: a named ESM import fails at runtime
 * (xtermjs #5441/#5448), hence the default import.
 */
import { createRequire } from 'node:module';
import type * as XtermHeadless from '@xterm/headless';
import type * as XtermUnicode11 from '@xterm/addon-unicode11';
import type { IBufferCell, Terminal as XTerm } from '@xterm/headless';
import { screenFromLines, type CellAttributes, type Screen, type ScreenRow, type Span } from '../../screen/index.ts';

// Loaded with the first pty pane, not when the daemon starts: xterm is a tenth of a second of
// load, and a daemon that resumes a tmux fleet never needs it (issue 26).
const require = createRequire(import.meta.url);

export function createTerminal(cols: number, rows: number): XTerm {
  const { Terminal } = require('@xterm/headless') as typeof XtermHeadless;
  const { Unicode11Addon } = require('@xterm/addon-unicode11') as typeof XtermUnicode11;
  // allowProposedApi is required to switch unicode versions; without Unicode 11 most emoji
  // measure one column and every column after them is off by one.
  const term = new Terminal({ cols, rows, scrollback: 5_000, allowProposedApi: true });
  term.loadAddon(new Unicode11Addon());
  term.unicode.activeVersion = '11';
  return term;
}

/** Resolves once everything written so far is parsed (write() parses asynchronously). */
export function flushTerminal(term: XTerm): Promise<void> {
  return new Promise<void>((resolve) => term.write('', resolve));
}

/** Colour of a cell as the SGR text tmux would have emitted for it (undefined = default). */
function colour(mode: 'fg' | 'bg', cell: IBufferCell): string | undefined {
  const isDefault = mode === 'fg' ? cell.isFgDefault() : cell.isBgDefault();
  if (isDefault) return undefined;
  const value = mode === 'fg' ? cell.getFgColor() : cell.getBgColor();
  const base = mode === 'fg' ? 30 : 40;
  if (mode === 'fg' ? cell.isFgRGB() : cell.isBgRGB()) {
    return `${base + 8};2;${(value >> 16) & 0xff};${(value >> 8) & 0xff};${value & 0xff}`;
  }
  // Palette: xterm keeps 16-colour and 256-colour settings apart in the colour mode bits.
  const P16 = 16777216;
  const colourMode = mode === 'fg' ? cell.getFgColorMode() : cell.getBgColorMode();
  if (colourMode === P16 && value < 8) return String(base + value);
  if (colourMode === P16 && value < 16) return String(base + 60 + value - 8);
  return `${base + 8};5;${value}`;
}

const ATTRIBUTE_KEYS = ['dim', 'bold', 'inverse', 'italic', 'underline', 'fg', 'bg'] as const;

function sameLook(x: CellAttributes, y: CellAttributes): boolean {
  return ATTRIBUTE_KEYS.every((key) => x[key] === y[key]);
}

function attributesOf(cell: IBufferCell): CellAttributes {
  const a: CellAttributes = {};
  if (cell.isDim()) a.dim = true;
  if (cell.isBold()) a.bold = true;
  if (cell.isInverse()) a.inverse = true;
  if (cell.isItalic()) a.italic = true;
  if (cell.isUnderline()) a.underline = true;
  const fg = colour('fg', cell);
  const bg = colour('bg', cell);
  if (fg !== undefined) a.fg = fg;
  if (bg !== undefined) a.bg = bg;
  return a;
}

/**
 * The visible viewport (the alternate buffer when a full-screen TUI is up), one ScreenRow per
 * row with spans. Wide characters occupy two cells; the second (width 0) is skipped so that the
 * text holds each character once.
 */
export function readViewport(term: XTerm): Screen {
  const buffer = term.buffer.active;
  const cell = buffer.getNullCell();
  const rows: ScreenRow[] = [];
  for (let y = buffer.viewportY; y < buffer.viewportY + term.rows; y++) {
    const line = buffer.getLine(y);
    const spans: Span[] = [];
    let text = '';
    if (line) {
      for (let x = 0; x < term.cols; x++) {
        if (!line.getCell(x, cell) || cell.getWidth() === 0) continue;
        const chars = cell.getChars() || ' ';
        const attrs = attributesOf(cell);
        const last = spans[spans.length - 1];
        if (last && sameLook(last.attrs, attrs)) last.text += chars;
        else spans.push({ text: chars, attrs });
        text += chars;
      }
    }
    rows.push({ text, spans });
  }
  return screenFromLines(rows, term.cols, term.rows);
}

/** Plain text of the last `lines` logical lines (wrapped rows joined): for people, never classified. */
export function readTail(term: XTerm, lines: number): string {
  const buffer = term.buffer.active;
  const out: string[] = [];
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y);
    if (!line) continue;
    const text = line.translateToString(true);
    if (line.isWrapped && out.length > 0) out[out.length - 1] += text;
    else out.push(text);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.slice(-Math.max(1, lines)).join('\n');
}
