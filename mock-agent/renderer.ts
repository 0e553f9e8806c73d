/**
 * Writes whole frames to the terminal. Screen readers (tmux capture-pane, xterm) parse the
 * resulting screen, not this byte stream, so every change repaints every row with absolute
 * cursor positioning: simple, and never leaves a stale cell behind.
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
}

function paintRows(frame: Line[], from: number, size: TerminalSize): string {
  let out = '';
  for (let r = 0; r < size.rows; r++) {
    const line = truncateLine(frame[from + r] ?? [], size.cols);
    out += `${ESC}[${r + 1};1H${encodeLine(line)}`;
    // Erasing after a full-width row would erase its last cell on xterm-like terminals.
    if (lineWidth(line) < size.cols) out += `${ESC}[K`;
  }
  return out;
}

function titleSequence(title: string): string {
  return `${ESC}]0;${title}\x07`;
}

/** Alternate screen, hidden hardware cursor, bracketed paste: the 2.1.332 fullscreen renderer. */
export class FullscreenRenderer implements Renderer {
  private title = '';
  constructor(
    private readonly out: Output,
    private readonly size: () => TerminalSize,
  ) {}

  start(): void {
    // The real program leaves one line on the main screen before switching: its exit hint then
    // lands on the second row (the first once tmux's remain-on-exit notice has scrolled it).
    this.out.write(`\r\n${ALT_ON}${HIDE_CURSOR}${PASTE_ON}${ESC}[H${ESC}[2J`);
  }

  draw(frame: Line[], title: string): void {
    const t = title !== this.title ? titleSequence(title) : '';
    this.title = title;
    this.out.write(t + paintRows(frame, 0, this.size()));
  }

  stop(trailer: string[]): void {
    const text = trailer.map((row) => `${row}\r\n`).join('');
    this.out.write(`${PASTE_OFF}${SHOW_CURSOR}${ALT_OFF}${text}`);
  }
}

/**
 * Main-screen renderer: the frame flows from the top; rows that no longer fit are scrolled into
 * the terminal's history (a line feed on the bottom row), never repainted again.
 */
export class ClassicRenderer implements Renderer {
  private scrolledOut = 0;
  private lastFrameRows = 0;
  private title = '';
  constructor(
    private readonly out: Output,
    private readonly size: () => TerminalSize,
  ) {}

  start(): void {
    this.out.write(`${HIDE_CURSOR}${PASTE_ON}${ESC}[H${ESC}[2J`);
  }

  draw(frame: Line[], title: string): void {
    const size = this.size();
    const t = title !== this.title ? titleSequence(title) : '';
    this.title = title;
    const need = Math.max(0, frame.length - size.rows);
    let out = t;
    if (need > this.scrolledOut) {
      out += paintRows(frame, this.scrolledOut, size);
      out += `${ESC}[${size.rows};1H` + '\n'.repeat(need - this.scrolledOut);
      this.scrolledOut = need;
    }
    out += paintRows(frame, this.scrolledOut, size);
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
