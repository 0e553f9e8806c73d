/**
 * What a pane drew, with what a repaint changes and a reading ignores taken out: the key two
 * frames share when they differ only by a spinner glyph or a counter (issue 26).
 *
 * The payload is read as tmux sends it (bytes below 32 and `\` escaped as `\ooo`) and never
 * decoded. Every control sequence is kept whole — cursor positions, colours, erases, titles: a
 * frame drawn at another row or in another colour has another key. In the text between them,
 * ASCII digits (a timer, a token count) and every non-ASCII byte (spinner glyphs, "❯", box
 * drawing) are left out; a frame that differs only there has the same key. Whether such a
 * frame may go unread is not decided here: the pane feed learns it (a frame is skipped only
 * once the same key, in the same reading, was read and read the same — actors/pane-feed.ts).
 *
 * A key is kept per pane across `%output` lines (issue 46): tmux cuts a pane's output into
 * pieces of its own choosing (at 200 busy panes, `8192 / panes / 3` bytes per pane per round,
 * so a 170-byte spinner frame came as ~4 lines cut at different places each time), and a key
 * per line made every cut a new key, read again. So the pieces are hashed as one stream, the
 * parser's state (inside a CSI, an OSC) carried from piece to piece, and the key is taken when
 * the pane's burst ends (pane-events.ts: its coalescing window): the same frame has the same
 * key however tmux cut it. A burst that ends mid-frame (a piece held up past the window) takes
 * a key of what came so far: a key not seen, read as before — never a skip.
 *
 * Only the first HASHED_BYTES of a burst are hashed (issue 46): a larger burst — a pane that
 * pours, a full-screen redraw — is read anyway, so its key is unknown, and the rest of it is only
 * followed, from its last escape, for the parser's state. At Claude Code's real byte rate the
 * hash of every byte was a quarter of the daemon's time.
 *
 * FNV-1a, 32 bits: a collision merges two frames' keys, which can only make one look like a
 * repaint already seen; the feed's periodic read bounds what that can cost.
 */
const BACKSLASH = 0x5c;
const ESC = 0x1b;
const FNV_OFFSET = 0x811c9dc5;
/** ESC as tmux sends it (every byte below 32 is escaped, and every backslash begins an escape). */
const ESC_ESCAPED = Buffer.from('\\033');
/** How much of one burst is hashed: a spinner tick is ~170 bytes as tmux sends it, a question 1-1.6 KB. */
export const HASHED_BYTES = 4096;

/** One pane's drawing, hashed as it comes in pieces. */
export class RepaintKeyStream {
  private h = FNV_OFFSET;
  /** The parser's state (nextMode), carried from piece to piece. */
  private mode = 0;
  /** A piece of unknown content came (a line not read off the bytes): the key is unknown. */
  private unknown = false;
  private empty = true;
  /** Bytes hashed in this burst. */
  private size = 0;

  /** `data[start..end)` is the payload of one `%output %<n> ` line. */
  add(data: Uint8Array, start: number, end: number): void {
    if (end > start) this.empty = false;
    if (!this.unknown && this.size + end - start > HASHED_BYTES) this.unknown = true;
    if (this.unknown) return this.follow(data, start, end);
    this.size += end - start;
    let h = this.h;
    let mode = this.mode;
    let i = start;
    while (i < end) {
      // tmux escapes whole bytes inside one line: a `\ooo` is never cut between two pieces.
      const escaped = escapeAt(data, i, end);
      const b = escaped < 0 ? data[i]! : escaped;
      i += escaped < 0 ? 1 : 4;
      // In text, digits (a timer, a count) and non-ASCII bytes (spinner glyphs) are left out.
      if (mode === 0 && escaped < 0 && ((b >= 0x30 && b <= 0x39) || b >= 0x80)) continue;
      mode = nextMode(mode, b);
      h ^= b;
      h = Math.imul(h, 0x01000193);
    }
    this.h = h;
    this.mode = mode;
  }

  /**
   * The parser's state after `data[start..end)`, without hashing: every sequence begins at an
   * escape, so only what follows the piece's last one (or, with none, what carries on from the
   * piece before) can leave the parser inside a sequence.
   */
  private follow(data: Uint8Array, start: number, end: number): void {
    const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const last = end - start >= ESC_ESCAPED.length ? bytes.lastIndexOf(ESC_ESCAPED, end - ESC_ESCAPED.length) : -1;
    let mode = this.mode;
    let i = start;
    if (last >= start) {
      mode = 1;
      i = last + ESC_ESCAPED.length;
    }
    while (i < end && mode !== 0) {
      const escaped = escapeAt(data, i, end);
      mode = nextMode(mode, escaped < 0 ? data[i]! : escaped);
      i += escaped < 0 ? 1 : 4;
    }
    this.mode = mode;
  }

  /** Something was drawn that this stream could not see: the burst's key is unknown. */
  poison(): void {
    this.unknown = true;
    this.empty = false;
  }

  /** Bytes went by unseen (a hushed pane, pour-hush.ts): the key is unknown, and what comes next is read from text. */
  skipped(): void {
    this.poison();
    this.mode = 0;
  }

  /**
   * The key of everything added since the last take (undefined: unknown, or nothing came), and
   * a fresh start for the next burst. The parser's state carries on: a burst that ended inside
   * a sequence goes on inside it.
   */
  take(): number | undefined {
    const key = this.unknown || this.empty ? undefined : this.h >>> 0;
    this.h = FNV_OFFSET;
    this.unknown = false;
    this.empty = true;
    this.size = 0;
    return key;
  }
}

/** The key of one whole payload `data[start..end)` on its own. */
export function repaintKey(data: Uint8Array, start: number, end: number): number {
  const s = new RepaintKeyStream();
  s.add(data, start, end);
  return s.take() ?? FNV_OFFSET;
}

/** The byte a `\ooo` at `i` stands for, or -1 when no whole escape starts there. */
function escapeAt(data: Uint8Array, i: number, end: number): number {
  if (data[i] !== BACKSLASH || i + 3 >= end || !isOctal(data[i + 1]) || !isOctal(data[i + 2]) || !isOctal(data[i + 3])) return -1;
  return ((data[i + 1]! - 0x30) << 6) | ((data[i + 2]! - 0x30) << 3) | (data[i + 3]! - 0x30);
}

/**
 * The parser's state after byte `b`: 0 text, 1 after ESC, 2 in a CSI (until its final byte), 3
 * in an OSC/DCS/PM/APC string (until BEL or ST). An ESC always begins a new sequence, as a
 * terminal reads it (ST is ESC \: the backslash that follows ends nothing more here).
 */
function nextMode(mode: number, b: number): number {
  if (b === ESC) return 1;
  if (mode === 1) return b === 0x5b ? 2 : b === 0x5d || b === 0x50 || b === 0x5f || b === 0x5e ? 3 : 0;
  if (mode === 2) return b >= 0x40 && b <= 0x7e ? 0 : 2;
  if (mode === 3) return b === 0x07 ? 0 : 3;
  return 0;
}

function isOctal(b: number | undefined): boolean {
  return b !== undefined && b >= 0x30 && b <= 0x37;
}
