/**
 * Styled text for the mock agent's frames: a line is a list of segments, each with its own
 * SGR attributes. Colours are the exact SGR parameters seen in the real Claude Code 2.1.332
 * captures (tests/fixtures/claude-code/2.1.332/*.ansi.txt), so a tmux capture of the mock carries
 * the same cell attributes as a capture of the real program.
 */

export interface Style {
  fg?: string;
  bg?: string;
  bold?: boolean;
  dim?: boolean;
  inverse?: boolean;
}

export interface Segment {
  text: string;
  style?: Style;
}

export type Line = Segment[];

/** SGR colour parameters taken from the captures. */
export const COLOUR = {
  accent: '38;5;174', // logo, spinner glyph and verb
  accentLight: '38;5;216',
  grey: '38;5;246', // footer, finished line, hints, tool lines
  rule: '38;5;244', // the rules around the input box
  white: '38;5;231', // reply bullet, echoed prompt text
  blue: '38;5;153', // selected menu rows, dialog titles
  yellow: '38;5;220', // folder-trust rule, API errors
  dash: '38;5;239', // the ╌ lines around a command in the permission dialog
  chipFg: '38;5;16',
  chipBg: '48;5;153',
  promptBg: '48;5;237', // echoed prompts in the transcript
  logoBg: '48;5;16',
} as const;

/** The live input box is ❯ + NO-BREAK SPACE; every other ❯ is followed by a plain space. */
export const CARET = '\u276F';
export const NBSP = '\u00A0';
export const ELBOW = '\u23BF'; // ⎿ in tool results and tips

export function seg(text: string, style?: Style): Segment {
  return style ? { text, style } : { text };
}

export function plain(text: string): Line {
  return [seg(text)];
}

export const BLANK: Line = [];

/** Terminal column width of one code point: 2 for wide East Asian and emoji, 0 for combining marks. */
export function charWidth(cp: number): number {
  if (cp === 0) return 0;
  if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f) || cp === 0xfe0f) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch.codePointAt(0) ?? 0);
  return w;
}

export function lineWidth(line: Line): number {
  return line.reduce((w, s) => w + textWidth(s.text), 0);
}

/** Cuts a line to at most `cols` columns, so that no row ever wraps and shifts the layout. */
export function truncateLine(line: Line, cols: number): Line {
  const out: Line = [];
  let used = 0;
  for (const s of line) {
    if (used >= cols) break;
    let kept = '';
    for (const ch of s.text) {
      const w = charWidth(ch.codePointAt(0) ?? 0);
      if (used + w > cols) {
        used = cols;
        break;
      }
      kept += ch;
      used += w;
    }
    if (kept) out.push({ ...s, text: kept });
  }
  return out;
}

/** Pads a line with spaces in `style` up to `cols` (used for the grey background of echoed prompts). */
export function padLine(line: Line, cols: number, style?: Style): Line {
  const gap = cols - lineWidth(line);
  return gap > 0 ? [...line, seg(' '.repeat(gap), style)] : line;
}

/** A line of `char` across the full width. */
export function ruleLine(cols: number, fg: string, char = '\u2500'): Line {
  return [seg(char.repeat(Math.max(0, cols)), { fg })];
}

/** Right-aligns `text` so that it ends two columns before the edge, as the effort and hint lines do. */
export function rightAligned(text: string, cols: number, style?: Style): Line {
  const pad = Math.max(0, cols - 2 - textWidth(text));
  return [seg(' '.repeat(pad)), seg(text, style)];
}

/**
 * Word-wraps `text` into rows of at most `width` columns. Words longer than a row are split.
 * Newlines in the text start new rows.
 */
export function wrapText(text: string, width: number): string[] {
  const rows: string[] = [];
  const w = Math.max(1, width);
  for (const para of text.split('\n')) {
    let row = '';
    for (const word of para.split(' ')) {
      const candidate = row === '' ? word : `${row} ${word}`;
      if (textWidth(candidate) <= w) {
        row = candidate;
        continue;
      }
      if (row !== '') rows.push(row);
      row = word;
      while (textWidth(row) > w) {
        const head = truncateLine([seg(row)], w)[0]?.text ?? '';
        rows.push(head);
        row = row.slice(head.length);
      }
    }
    rows.push(row);
  }
  return rows;
}

/** SGR parameter list for a style; always starts from a reset so segments never inherit. */
export function sgr(style: Style | undefined): string {
  const codes = ['0'];
  if (style?.bold) codes.push('1');
  if (style?.dim) codes.push('2');
  if (style?.inverse) codes.push('7');
  if (style?.fg) codes.push(style.fg);
  if (style?.bg) codes.push(style.bg);
  return `\x1b[${codes.join(';')}m`;
}

/** The bytes of one line (no cursor movement, no erase). */
export function encodeLine(line: Line): string {
  let out = '';
  for (const s of line) out += sgr(s.style) + s.text;
  return out + '\x1b[0m';
}
