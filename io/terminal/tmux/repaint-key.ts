/**
 * What a `%output` frame draws, with what a repaint changes and a reading ignores taken out: the
 * key two frames share when they differ only by a spinner glyph or a counter (issue 26).
 *
 * The payload is read as tmux sends it (bytes below 32 and `\` escaped as `\ooo`) and never
 * decoded. Every control sequence is kept whole — cursor positions, colours, erases, titles: a
 * frame drawn at another row or in another colour has another key. In the text between them,
 * ASCII digits (a timer, a token count) and every non-ASCII byte (spinner glyphs, "❯", box
 * drawing) are left out; a frame that differs only there has the same key. Whether such a
 * frame may go unread is not decided here: the pane feed learns it (a frame is skipped only
 * once the same key, in the same reading, was read and read the same — actors/pane-feed.ts).
 *
 * FNV-1a, 32 bits: a collision merges two frames' keys, which can only make one look like a
 * repaint already seen; the feed's periodic read bounds what that can cost.
 */
const BACKSLASH = 0x5c;
const ESC = 0x1b;

/** `data[start..end)` is the payload of one `%output %<n> ` line. */
export function repaintKey(data: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  // 0 text, 1 after ESC, 2 in a CSI (until its final byte), 3 in an OSC/DCS string (until BEL or ST).
  let mode = 0;
  let i = start;
  while (i < end) {
    let b = data[i]!;
    let escaped = false;
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
  return h >>> 0;
}

function isOctal(b: number | undefined): boolean {
  return b !== undefined && b >= 0x30 && b <= 0x37;
}
