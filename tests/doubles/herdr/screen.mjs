// Reading a pane's emulator the way herdr's read sources are described:
//   visible          the rendered viewport
//   recent           the last N rendered rows of the buffer (wrapped), default 80, cap 1000
//   recent-unwrapped the same rows with soft wraps joined
//   detection        the bottom `rows` rows of the active buffer, each row trim_end()'d (Unicode
//                    whitespace, so a trailing NBSP goes too), trailing blank rows dropped,
//                    joined with \n plus a final \n — the snapshot state detection classifies.
// `--lines N` on visible/detection keeps the last N lines. Format `ansi` adds SGR attributes.

const MAX_LINES = 1000;

/** Trailing plain spaces only: a rendered U+00A0 (Claude's live input box) must survive. */
const trimSpaces = (s) => s.replace(/ +$/, '');

function sgrFor(cell) {
  const codes = [];
  if (cell.isBold()) codes.push('1');
  if (cell.isDim()) codes.push('2');
  if (cell.isItalic()) codes.push('3');
  if (cell.isUnderline()) codes.push('4');
  if (cell.isInverse()) codes.push('7');
  const colour = (isRGB, isPalette, value, base, bright, ext) => {
    if (isRGB) codes.push(`${ext};2;${(value >> 16) & 255};${(value >> 8) & 255};${value & 255}`);
    else if (isPalette) {
      if (value < 8) codes.push(String(base + value));
      else if (value < 16) codes.push(String(bright + value - 8));
      else codes.push(`${ext};5;${value}`);
    }
  };
  colour(cell.isFgRGB(), cell.isFgPalette(), cell.getFgColor(), 30, 90, 38);
  colour(cell.isBgRGB(), cell.isBgPalette(), cell.getBgColor(), 40, 100, 48);
  return codes.join(';');
}

function rowText(line, ansi, scratch) {
  if (!line) return '';
  if (!ansi) return trimSpaces(line.translateToString(true));
  const parts = [];
  let current = '';
  let keep = 0; // length of `parts` up to the last cell worth keeping
  for (let x = 0; x < line.length; x++) {
    const cell = line.getCell(x, scratch);
    if (!cell || cell.getWidth() === 0) continue; // right half of a wide character
    const sgr = sgrFor(cell);
    if (sgr !== current) {
      parts.push(sgr ? `\x1b[0;${sgr}m` : '\x1b[0m');
      current = sgr;
    }
    const chars = cell.getChars() || ' ';
    parts.push(chars);
    if (chars !== ' ' || sgr !== '') keep = parts.length;
  }
  const kept = parts.slice(0, keep);
  // Close the row if any attribute is still open at its end.
  const open = kept.findLast((p) => p.startsWith('\x1b['));
  if (open && open !== '\x1b[0m') kept.push('\x1b[0m');
  return kept.join('');
}

function bufferRows(term, from, to, ansi) {
  const buffer = term.buffer.active;
  const scratch = buffer.getNullCell();
  const rows = [];
  for (let y = from; y < to; y++) rows.push({ text: rowText(buffer.getLine(y), ansi, scratch), wrapped: buffer.getLine(y)?.isWrapped ?? false });
  return rows;
}

/** Returns the text of one read, or throws { code, message } for bad parameters. */
export function readPane(term, { source, lines, format }) {
  const ansi = format === 'ansi';
  const buffer = term.buffer.active;
  const keepLast = (rows) => (lines !== undefined ? rows.slice(Math.max(0, rows.length - lines)) : rows);
  switch (source) {
    case 'visible': {
      const top = buffer.viewportY;
      return keepLast(bufferRows(term, top, top + term.rows, ansi)).map((r) => r.text).join('\n');
    }
    case 'detection':
      return keepLast(detectionRows(term)).join('\n') + '\n';
    case 'recent':
    case 'recent-unwrapped': {
      const n = Math.min(lines ?? 80, MAX_LINES);
      const end = lastContentRow(term) + 1;
      const rows = bufferRows(term, Math.max(0, end - n), end, ansi);
      if (source === 'recent') return rows.map((r) => r.text).join('\n');
      const joined = [];
      for (const row of rows) {
        if (row.wrapped && joined.length > 0) joined[joined.length - 1] += row.text;
        else joined.push(row.text);
      }
      return joined.join('\n');
    }
    default:
      throw { code: 'invalid_params', message: `unknown read source ${JSON.stringify(source)}` };
  }
}

function lastContentRow(term) {
  const buffer = term.buffer.active;
  for (let y = buffer.length - 1; y >= 0; y--) {
    if (buffer.getLine(y)?.translateToString(true).trim()) return y;
  }
  return 0;
}

/** The detection snapshot rows (see the header comment). */
export function detectionRows(term) {
  const buffer = term.buffer.active;
  const rows = [];
  for (let y = Math.max(0, buffer.length - term.rows); y < buffer.length; y++) {
    rows.push((buffer.getLine(y)?.translateToString(true) ?? '').replace(/\s+$/u, ''));
  }
  while (rows.length > 0 && rows[rows.length - 1] === '') rows.pop();
  return rows;
}

/** A full repaint of the viewport as ANSI bytes: the first frame an observer gets. */
export function fullFrame(term) {
  const buffer = term.buffer.active;
  const rows = bufferRows(term, buffer.viewportY, buffer.viewportY + term.rows, true).map((r) => r.text);
  const cursor = `\x1b[${buffer.cursorY + 1};${buffer.cursorX + 1}H`;
  return `\x1b[0m\x1b[H\x1b[2J${rows.join('\r\n')}${cursor}`;
}
