/**
 * KH_MOCK_STREAM=real: while a turn works, the mock writes at Claude Code's measured peak byte
 * rate (issue 46: about 0.31 MB/s in the wild, nearly half of it full-screen redraws of ~95 KB),
 * not only a spinner tick (~170 bytes ten times a second). The screen it leaves is the frame the
 * mock would draw anyway — working, with its spinner — so a reader classifies it as before; what
 * changes is what tmux must parse and send, and what the daemon must hear and key.
 *
 * Two kinds of writes, as the real program makes them:
 * - a rewrite: every row of the frame written again whole (Ink rewrites its live area on each
 *   render), as often as it takes to write REWRITE_BYTES_PER_S;
 * - a full-screen redraw every REDRAW_EVERY_MS: the screen cleared and the whole transcript
 *   written through it (~REDRAW_BYTES, the rows scrolling by) before the frame is painted again.
 */
export const REDRAW_BYTES = 95_000;
export const REDRAW_EVERY_MS = 650;
export const REWRITE_BYTES_PER_S = 160_000;
/** The fastest a rewrite is written: the mock's frame is small (~2.5 KB), so the rewrites' byte rate needs up to 60 a second. */
const MIN_REWRITE_MS = 16;

const ESC = '\x1b';

/** What the stream draws with: the renderer's two writes of the current frame, and a clock of timers. */
export interface StreamTarget {
  /** Every row of the current frame written again; returns the bytes written. */
  rewrite(): number;
  /** The screen cleared, `transcript` written through it, the frame painted again; returns the bytes written. */
  redraw(transcript: string): number;
}

/** The transcript a full-screen redraw writes through the screen: styled rows, about `bytes` long. */
export function redrawTranscript(bytes: number, cols: number): string {
  const rows: string[] = [];
  let size = 0;
  for (let k = 0; size < bytes; k++) {
    const words = `${k % 7 === 0 ? '⏺ ' : '  '}Read the file and checked each call site of the handler before changing line ${k} of the module`;
    const row = `${ESC}[38;5;${k % 7 === 0 ? 231 : 246}m${words.slice(0, cols - 1)}${ESC}[39m${ESC}[K\r\n`;
    rows.push(row);
    size += Buffer.byteLength(row);
  }
  return rows.join('');
}

export class RealStream {
  private timer: NodeJS.Timeout | null = null;
  private lastRedraw = 0;
  private transcript = '';
  written = 0;

  constructor(
    private readonly target: StreamTarget,
    private readonly cols: () => number,
  ) {}

  /** Streams until stop(); a second start is ignored. */
  start(): void {
    if (this.timer) return;
    this.lastRedraw = performance.now();
    this.transcript = redrawTranscript(REDRAW_BYTES, this.cols());
    const step = () => {
      const now = performance.now();
      let bytes: number;
      if (now - this.lastRedraw >= REDRAW_EVERY_MS) {
        this.lastRedraw = now;
        bytes = this.target.redraw(this.transcript);
        this.written += bytes;
        bytes = 0; // the redraw's bytes are its own share: the next rewrite comes at the usual pace
      }
      bytes = this.target.rewrite();
      this.written += bytes;
      // A rewrite's size sets its pace: REWRITE_BYTES_PER_S whatever the frame's width and rows.
      this.timer = setTimeout(step, Math.max(MIN_REWRITE_MS, (bytes / REWRITE_BYTES_PER_S) * 1000));
    };
    this.timer = setTimeout(step, MIN_REWRITE_MS);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
