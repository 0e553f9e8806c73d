/**
 * Turns raw terminal input (stdin in raw mode, decoded as UTF-8) into key events.
 * Bracketed paste (ESC[200~ … ESC[201~) is collected whole however many reads it spans, so a
 * 100 KB paste arrives as one event and its newlines never act as Enter.
 */

export type Key =
  | { type: 'text'; text: string }
  | { type: 'paste'; text: string }
  | { type: 'enter' }
  | { type: 'backspace' }
  | { type: 'escape' }
  | { type: 'tab' }
  | { type: 'shift-tab' }
  | { type: 'up' }
  | { type: 'down' }
  | { type: 'left' }
  | { type: 'right' }
  | { type: 'ctrl'; key: string };

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

const CSI_KEYS: Record<string, Key> = {
  A: { type: 'up' },
  B: { type: 'down' },
  C: { type: 'right' },
  D: { type: 'left' },
  Z: { type: 'shift-tab' },
};

export class KeyParser {
  private buffer = '';
  private pasteParts: string[] | null = null;

  /** Feeds decoded input; returns the complete keys. An incomplete escape sequence is kept. */
  feed(chunk: string): Key[] {
    this.buffer += chunk;
    const keys: Key[] = [];
    while (this.buffer.length > 0) {
      if (this.pasteParts) {
        if (!this.consumePaste(keys)) break;
        continue;
      }
      const consumed = this.consumeOne(keys);
      if (consumed === 0) break;
      this.buffer = this.buffer.slice(consumed);
    }
    return keys;
  }

  /** True when a lone ESC (or a cut-off sequence) waits for more bytes. */
  get pending(): boolean {
    return this.buffer.length > 0 && this.pasteParts === null;
  }

  /** Called when no more bytes followed a pending ESC: it was the Escape key. */
  flush(): Key[] {
    if (!this.pending) return [];
    const rest = this.buffer.slice(1);
    this.buffer = '';
    return [{ type: 'escape' }, ...this.feed(rest)];
  }

  private consumePaste(keys: Key[]): boolean {
    const parts = this.pasteParts as string[];
    const end = this.buffer.indexOf(PASTE_END);
    if (end >= 0) {
      parts.push(this.buffer.slice(0, end));
      this.buffer = this.buffer.slice(end + PASTE_END.length);
      this.pasteParts = null;
      keys.push({ type: 'paste', text: parts.join('') });
      return true;
    }
    // Keep a tail that could be the start of the end marker split across reads.
    const keep = PASTE_END.length - 1;
    if (this.buffer.length > keep) {
      parts.push(this.buffer.slice(0, this.buffer.length - keep));
      this.buffer = this.buffer.slice(this.buffer.length - keep);
    }
    return false;
  }

  /** Consumes one key (or one run of printable text) from the buffer; 0 = need more input. */
  private consumeOne(keys: Key[]): number {
    const b = this.buffer;
    const c = b[0] as string;
    if (c === '\x1b') return this.consumeEscape(keys);
    if (c === '\r') {
      keys.push({ type: 'enter' });
      return b[1] === '\n' ? 2 : 1;
    }
    if (c === '\n') {
      keys.push({ type: 'enter' });
      return 1;
    }
    if (c === '\x7f' || c === '\b') {
      keys.push({ type: 'backspace' });
      return 1;
    }
    if (c === '\t') {
      keys.push({ type: 'tab' });
      return 1;
    }
    const code = c.charCodeAt(0);
    if (code < 0x20) {
      keys.push({ type: 'ctrl', key: String.fromCharCode(code + 96) });
      return 1;
    }
    let end = 1;
    while (end < b.length && b.charCodeAt(end) >= 0x20 && b[end] !== '\x7f') end++;
    keys.push({ type: 'text', text: b.slice(0, end) });
    return end;
  }

  private consumeEscape(keys: Key[]): number {
    const b = this.buffer;
    if (b.length < 2) return 0;
    const next = b[1];
    if (next === '[') {
      // CSI: parameter bytes then one final byte in @..~
      let i = 2;
      while (i < b.length && /[0-9;?<=>]/.test(b[i] as string)) i++;
      if (i >= b.length) return 0;
      const seq = b.slice(0, i + 1);
      if (seq === PASTE_START) {
        this.pasteParts = [];
        return seq.length;
      }
      const key = CSI_KEYS[b[i] as string];
      if (key) keys.push(key);
      return i + 1; // focus reports, delete, etc. are ignored
    }
    if (next === 'O') {
      if (b.length < 3) return 0;
      const key = CSI_KEYS[b[2] as string];
      if (key) keys.push(key);
      return 3;
    }
    keys.push({ type: 'escape' });
    return 1;
  }
}
