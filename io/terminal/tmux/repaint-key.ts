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
 * FNV-1a, 32 bits: a collision merges two frames' keys, which can only make one look like a
 * repaint already seen; the feed's periodic read bounds what that can cost.
 */
const BACKSLASH = 0x5c;
const ESC = 0x1b;
const FNV_OFFSET = 0x811c9dc5;

/** One pane's drawing, hashed as it comes in pieces. */
export class RepaintKeyStream {
  private h = FNV_OFFSET;
  // 0 text, 1 after ESC, 2 in a CSI (until its final byte), 3 in an OSC/DCS string (until BEL or ST).
  private mode = 0;
  /** A piece of unknown content came (a line not read off the bytes): the key is unknown. */
  private unknown = false;
  private empty = true;

  /** `data[start..end)` is the payload of one `%output %<n> ` line. */
  add(data: Uint8Array, start: number, end: number): void {
    let h = this.h;
    let mode = this.mode;
    let i = start;
    if (end > start) this.empty = false;
    while (i < end) {
      let b = data[i]!;
      let escaped = false;
      // tmux escapes whole bytes inside one line: a `\ooo` is never cut between two pieces.
      if (b === BACKSLASH && i + 3 < end && isOctal(data[i + 1]) && isOctal(data[i + 2]) && isOctal(data[i + 3])) {
        b = ((data[i + 1]! - 0x30) << 6) | ((data[i + 2]! - 0x30) << 3) | (data[i + 3]! - 0x30);
        i += 4;
        escaped = true;
      } else {
        i += 1;
      }
      if (mode === 0) {
        if (b === ESC) mode = 1;
        else if (!escaped && ((b >= 0x30 && b <= 0x39) || b >= 0x80)) continue;
      } else if (mode === 1) {
        mode = b === 0x5b ? 2 : b === 0x5d || b === 0x50 || b === 0x5f || b === 0x5e ? 3 : 0;
      } else if (mode === 2) {
        if (b >= 0x40 && b <= 0x7e) mode = 0;
      } else if (b === 0x07) {
        mode = 0;
      } else if (b === ESC) {
        mode = 1; // ST is ESC \: the backslash that follows ends nothing more here
      }
      h ^= b;
      h = Math.imul(h, 0x01000193);
    }
    this.h = h;
    this.mode = mode;
  }

  /** Something was drawn that this stream could not see: the burst's key is unknown. */
  poison(): void {
    this.unknown = true;
    this.empty = false;
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
    return key;
  }
}

/** The key of one whole payload `data[start..end)` on its own. */
export function repaintKey(data: Uint8Array, start: number, end: number): number {
  const s = new RepaintKeyStream();
  s.add(data, start, end);
  return s.take() ?? FNV_OFFSET;
}

function isOctal(b: number | undefined): boolean {
  return b !== undefined && b >= 0x30 && b <= 0x37;
}
