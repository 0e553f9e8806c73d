/**
 * Writes frames to the terminal. Screen readers (tmux capture-pane, xterm) parse the resulting
 * screen, not this byte stream. Every row that changed is repainted whole with absolute cursor
 * positioning and erased to its end, so no stale cell is left behind; rows that did not change
 * are not written again — as the real program does (a whole Claude Code session is ~12 KB of
 * differential updates), so a spinner tick costs tmux and the daemon one row, not forty.
 */
import { encodeLine, lineWidth, truncateLine, type Line } from './style.ts';

export interface TerminalSize {
  cols: number;
  rows: number;
}

export interface Output {
  write(data: string): unknown;
}

const ESC = '\x1b';
const HIDE_CURSOR = `${ESC}[?25l`;
const SHOW_CURSOR = `${ESC}[?25h`;
const PASTE_ON = `${ESC}[?2004h`;
const PASTE_OFF = `${ESC}[?2004l`;
const ALT_ON = `${ESC}[?1049h`;
const ALT_OFF = `${ESC}[?1049l`;

export interface Renderer {
  start(): void;
  draw(frame: Line[], title: string): void;
  /** Leaves the screen as the real program does and prints `trailer` (already encoded rows). */
  stop(trailer: string[]): void;
  /** Every row of the frame written again whole (KH_MOCK_STREAM=real); the bytes written. */
  rewrite(frame: Line[]): number;
  /** The screen cleared, `transcript` written through it, then every row of the frame; the bytes written. */
  redraw(frame: Line[], transcript: string): number;
}

/** One row as written: the line, and an erase to its end unless it fills the width. */
function encodeRow(frame: Line[], at: number, size: TerminalSize): string {
  const line = truncateLine(frame[at] ?? [], size.cols);
  // Erasing after a full-width row would erase its last cell on xterm-like terminals.
  return encodeLine(line) + (lineWidth(line) < size.cols ? `${ESC}[K` : '');
}

function encodeRows(frame: Line[], from: number, size: TerminalSize): string[] {
  const rows: string[] = [];
  for (let r = 0; r < size.rows; r++) rows.push(encodeRow(frame, from + r, size));
  return rows;
}

function paintRows(frame: Line[], from: number, size: TerminalSize): string {
  return encodeRows(frame, from, size).map((row, r) => `${ESC}[${r + 1};1H${row}`).join('');
}

/** The rows that differ from what is on the screen (all of them after a resize or a clear). */
class PaintedRows {
  private rows: string[] = [];
  /** The line each row was encoded from: a row whose line is the very same object is not encoded again. */
  private lines: Array<Line | undefined> = [];
  private size = '';

  paint(frame: Line[], from: number, size: TerminalSize): string {
    const key = `${size.cols}x${size.rows}`;
    const all = key !== this.size;
    let out = '';
    for (let r = 0; r < size.rows; r++) {
      const line = frame[from + r];
      if (!all && line !== undefined && line === this.lines[r]) continue;
      const row = encodeRow(frame, from + r, size);
      if (all || row !== this.rows[r]) out += `${ESC}[${r + 1};1H${row}`;
      this.rows[r] = row;
      this.lines[r] = line;
    }
    this.rows.length = size.rows;
    this.lines.length = size.rows;
    this.size = key;
    return out;
  }

  forget(): void {
    this.size = '';
    this.lines = [];
  }
}

function titleSequence(title: string): string {
  return `${ESC}]0;${title}\x07`;
}

/** What both renderers share: where they write, the terminal's size, the rows painted, the title set. */
abstract class PaintingRenderer {
  private title = '';
  protected readonly painted = new PaintedRows();
  constructor(
    protected readonly out: Output,
    protected readonly size: () => TerminalSize,
  ) {}

  /** Forgets what was painted and clears the screen, after `lead` (what the real program writes first). */
  protected clearScreen(lead: string): void {
    this.painted.forget();
    this.out.write(`${lead}${HIDE_CURSOR}${PASTE_ON}${ESC}[H${ESC}[2J`);
  }

  /** The first frame row on the screen's top row (the classic renderer's rows scrolled out). */
  protected firstRow(): number {
    return 0;
  }

  rewrite(frame: Line[]): number {
    this.painted.forget();
    const out = this.painted.paint(frame, this.firstRow(), this.size());
    this.out.write(out);
    return Buffer.byteLength(out);
  }

  redraw(frame: Line[], transcript: string): number {
    this.painted.forget();
    const out = `${ESC}[2J${ESC}[H${transcript}${this.painted.paint(frame, this.firstRow(), this.size())}`;
    this.out.write(out);
    return Buffer.byteLength(out);
  }

  /** The title sequence when the title changed since the last frame, else nothing. */
  protected titleChange(title: string): string {
    const t = title !== this.title ? titleSequence(title) : '';
    this.title = title;
    return t;
  }
}

/** Alternate screen, hidden hardware cursor, bracketed paste: the 2.1.332 fullscreen renderer. */
export class FullscreenRenderer extends PaintingRenderer implements Renderer {
  start(): void {
    // The real program leaves one line on the main screen before switching: its exit hint then
    // lands on the second row (the first once tmux's remain-on-exit notice has scrolled it).
    this.clearScreen(`\r\n${ALT_ON}`);
  }

  draw(frame: Line[], title: string): void {
    this.out.write(this.titleChange(title) + this.painted.paint(frame, 0, this.size()));
  }

  stop(trailer: string[]): void {
    this.painted.forget();
    const text = trailer.map((row) => `${row}\r\n`).join('');
    this.out.write(`${PASTE_OFF}${SHOW_CURSOR}${ALT_OFF}${text}`);
  }
}

/**
 * Main-screen renderer: the frame flows from the top; rows that no longer fit are scrolled into
 * the terminal's history (a line feed on the bottom row), never repainted again.
 */
export class ClassicRenderer extends PaintingRenderer implements Renderer {
  private scrolledOut = 0;
  private lastFrameRows = 0;

  protected override firstRow(): number {
    return this.scrolledOut;
  }

  start(): void {
    this.clearScreen('');
  }

  draw(frame: Line[], title: string): void {
    const size = this.size();
    const need = Math.max(0, frame.length - size.rows);
    let out = this.titleChange(title);
    if (need > this.scrolledOut) {
      out += paintRows(frame, this.scrolledOut, size);
      out += `${ESC}[${size.rows};1H` + '\n'.repeat(need - this.scrolledOut);
      this.scrolledOut = need;
      this.painted.forget(); // everything moved up: repaint every row
    }
    out += this.painted.paint(frame, this.scrolledOut, size);
    this.lastFrameRows = Math.max(0, frame.length - this.scrolledOut);
    this.out.write(out);
  }

  stop(trailer: string[]): void {
    const size = this.size();
    const row = Math.min(Math.max(this.lastFrameRows, 1), size.rows);
    const text = trailer.map((r) => `\r\n${r}`).join('');
    this.out.write(`${ESC}[${row};1H${text}\r\n${PASTE_OFF}${SHOW_CURSOR}`);
  }
}
