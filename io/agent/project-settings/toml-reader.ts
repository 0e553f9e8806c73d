/**
 * A strict reader for the TOML a repository's `.codex/config.toml` holds, so the landing evidence
 * can say what it runs (its MCP servers, hooks, sandbox and approval settings). There is no TOML
 * library among kingshand's dependencies, and the file is a worker's to write, so this reader
 * takes the opposite stance of a forgiving one: anything it is not sure of (an unknown escape, a
 * duplicate key, a table defined twice, a value it cannot end) throws, and the caller reports the
 * file as "present, unreadable" — which needs the person's word — never as "nothing in it". A
 * quoted key is decoded (`"mcp_servers"` is the key `mcp_servers`), as Codex's own parser does.
 * Dates and times are kept as their text.
 */

export class TomlError extends Error {}

type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v);


export function parseToml(text: string): Table {
  return new Reader(text).document();
}

class Reader {
  private at = 0;
  /** Tables opened by a header: another header for the same table is an error. */
  private readonly defined = new WeakSet<object>();
  /** Inline tables and arrays of values are closed: no header or dotted key may add to them. */
  private readonly closed = new WeakSet<object>();
  constructor(private readonly s: string) {
    if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s)) throw new TomlError('a control character outside the allowed ones');
  }

  private fail(what: string): never {
    const line = this.s.slice(0, this.at).split('\n').length;
    throw new TomlError(`line ${line}: ${what}`);
  }

  private peek(n = 0): string {
    return this.s[this.at + n] ?? '';
  }

  private skipBlank(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.at++;
  }

  /** Blanks, comments and newlines (between statements, and inside arrays). */
  private skipSpace(): void {
    for (;;) {
      this.skipBlank();
      if (this.peek() === '#') while (this.at < this.s.length && this.peek() !== '\n') this.at++;
      if (this.peek() === '\n') this.at++;
      else if (this.peek() === '\r' && this.peek(1) === '\n') this.at += 2;
      else return;
    }
  }

  /** After a statement: blanks, an optional comment, then a newline or the end. */
  private endOfLine(): void {
    this.skipBlank();
    if (this.peek() === '#') while (this.at < this.s.length && this.peek() !== '\n') this.at++;
    if (this.at >= this.s.length) return;
    if (this.peek() === '\n') return void this.at++;
    if (this.peek() === '\r' && this.peek(1) === '\n') return void (this.at += 2);
    this.fail('more after a value on the same line');
  }

  document(): Table {
    const root: Table = {};
    let current = root;
    for (;;) {
      this.skipSpace();
      if (this.at >= this.s.length) return root;
      if (this.peek() === '[') {
        const array = this.peek(1) === '[';
        this.at += array ? 2 : 1;
        this.skipBlank();
        const keys = this.key();
        this.skipBlank();
        if (this.s.slice(this.at, this.at + (array ? 2 : 1)) !== (array ? ']]' : ']')) this.fail('an unclosed table header');
        this.at += array ? 2 : 1;
        this.endOfLine();
        current = array ? this.arrayTable(root, keys) : this.table(root, keys);
        continue;
      }
      this.keyValue(current);
      this.endOfLine();
    }
  }

  private descend(from: Table, keys: string[]): Table {
    let t = from;
    for (const k of keys) {
      if (!Object.hasOwn(t, k)) t[k] = {};
      let next = t[k];
      if (Array.isArray(next)) {
        if (this.closed.has(next)) this.fail(`${k} is an array of values, not of tables`);
        next = next[next.length - 1];
      }
      if (!isTable(next) || this.closed.has(next)) this.fail(`${k} is not a table that can be extended`);
      t = next;
    }
    return t;
  }

  private table(root: Table, keys: string[]): Table {
    const t = this.descend(root, keys);
    if (this.defined.has(t)) this.fail(`table [${keys.join('.')}] defined twice`);
    this.defined.add(t);
    return t;
  }

  private arrayTable(root: Table, keys: string[]): Table {
    const parent = this.descend(root, keys.slice(0, -1));
    const last = keys[keys.length - 1]!;
    if (!Object.hasOwn(parent, last)) parent[last] = [];
    const list = parent[last];
    if (!Array.isArray(list) || this.closed.has(list)) this.fail(`[[${keys.join('.')}]] after ${last} was given another value`);
    const t: Table = {};
    list.push(t);
    return t;
  }

  private keyValue(into: Table): void {
    const keys = this.key();
    this.skipBlank();
    if (this.peek() !== '=') this.fail('a key without "="');
    this.at++;
    this.skipBlank();
    const value = this.value();
    const t = this.descend(into, keys.slice(0, -1));
    const last = keys[keys.length - 1]!;
    if (Object.hasOwn(t, last)) this.fail(`key ${keys.join('.')} given twice`);
    t[last] = value;
  }

  private key(): string[] {
    const keys: string[] = [];
    for (;;) {
      this.skipBlank();
      const c = this.peek();
      if (c === '"') keys.push(this.basicString());
      else if (c === "'") keys.push(this.literalString());
      else {
        const m = /^[A-Za-z0-9_-]+/.exec(this.s.slice(this.at));
        if (!m) this.fail('a key expected');
        keys.push(m[0]);
        this.at += m[0].length;
      }
      this.skipBlank();
      if (this.peek() !== '.') return keys;
      this.at++;
    }
  }

  private value(): unknown {
    const c = this.peek();
    if (c === '"') return this.s.startsWith('"""', this.at) ? this.multiBasic() : this.basicString();
    if (c === "'") return this.s.startsWith("'''", this.at) ? this.multiLiteral() : this.literalString();
    if (c === '[') return this.array();
    if (c === '{') return this.inlineTable();
    const rest = this.s.slice(this.at);
    const bool = /^(true|false)(?![A-Za-z0-9_-])/.exec(rest);
    if (bool) {
      this.at += bool[0].length;
      return bool[0] === 'true';
    }
    // Dates and times: kept as text (nothing here judges one).
    const date = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?)?|^\d{2}:\d{2}:\d{2}(?:\.\d+)?/.exec(rest);
    if (date) {
      this.at += date[0].length;
      return date[0];
    }
    const num = /^[+-]?(?:inf|nan)|^0x[0-9A-Fa-f_]+|^0o[0-7_]+|^0b[01_]+|^[+-]?\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d[\d_]*)?/.exec(rest);
    if (num) {
      this.at += num[0].length;
      const t = num[0].replaceAll('_', '');
      if (/inf$/.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
      if (/nan$/.test(t)) return NaN;
      if (/^0[xob]/.test(t)) return Number(t);
      return Number(t);
    }
    this.fail('a value kingshand cannot read');
  }

  private array(): unknown[] {
    this.at++;
    const out: unknown[] = [];
    this.closed.add(out);
    for (;;) {
      this.skipSpace();
      if (this.peek() === ']') {
        this.at++;
        return out;
      }
      out.push(this.value());
      this.skipSpace();
      if (this.peek() === ',') this.at++;
      else if (this.peek() !== ']') this.fail('an array without "," or "]"');
    }
  }

  private inlineTable(): Table {
    this.at++;
    const t: Table = {};
    this.skipBlank();
    if (this.peek() === '}') {
      this.at++;
      this.closed.add(t);
      return t;
    }
    for (;;) {
      this.skipBlank();
      this.keyValue(t);
      this.skipBlank();
      if (this.peek() === ',') this.at++;
      else if (this.peek() === '}') {
        this.at++;
        this.closed.add(t);
        return t;
      } else this.fail('an inline table without "," or "}"');
    }
  }

  private escape(): string {
    const c = this.peek();
    this.at++;
    const simple: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\', e: '\u001b' };
    if (c in simple) return simple[c]!;
    if (c === 'u' || c === 'U') {
      const n = c === 'u' ? 4 : 8;
      const hex = this.s.slice(this.at, this.at + n);
      if (!new RegExp(`^[0-9A-Fa-f]{${n}}$`).test(hex)) this.fail('a bad unicode escape');
      this.at += n;
      const code = parseInt(hex, 16);
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) this.fail('an escape that is no character');
      return String.fromCodePoint(code);
    }
    this.fail(`an unknown escape \\${c}`);
  }

  private basicString(): string {
    this.at++;
    let out = '';
    for (;;) {
      const c = this.peek();
      if (c === '' || c === '\n') this.fail('an unclosed string');
      this.at++;
      if (c === '"') return out;
      out += c === '\\' ? this.escape() : c;
    }
  }

  private literalString(): string {
    this.at++;
    const end = this.s.indexOf("'", this.at);
    const nl = this.s.indexOf('\n', this.at);
    if (end < 0 || (nl >= 0 && nl < end)) this.fail('an unclosed string');
    const out = this.s.slice(this.at, end);
    this.at = end + 1;
    return out;
  }

  private multiBasic(): string {
    this.at += 3;
    if (this.peek() === '\n') this.at++;
    else if (this.peek() === '\r' && this.peek(1) === '\n') this.at += 2;
    let out = '';
    for (;;) {
      if (this.at >= this.s.length) this.fail('an unclosed multi-line string');
      if (this.s.startsWith('"""', this.at)) {
        // Up to two quotes may close the content before the delimiter.
        let extra = 0;
        while (extra < 2 && this.s[this.at + 3 + extra] === '"') extra++;
        out += '"'.repeat(extra);
        this.at += 3 + extra;
        return out;
      }
      const c = this.peek();
      this.at++;
      if (c !== '\\') {
        out += c;
        continue;
      }
      // A backslash at the end of a line trims the newline and the blanks after it.
      const ws = /^[ \t]*\r?\n[\s]*/.exec(this.s.slice(this.at));
      if (ws) this.at += ws[0].length;
      else out += this.escape();
    }
  }

  private multiLiteral(): string {
    this.at += 3;
    if (this.peek() === '\n') this.at++;
    else if (this.peek() === '\r' && this.peek(1) === '\n') this.at += 2;
    const end = this.s.indexOf("'''", this.at);
    if (end < 0) this.fail('an unclosed multi-line string');
    let extra = 0;
    while (extra < 2 && this.s[end + 3 + extra] === "'") extra++;
    const out = this.s.slice(this.at, end + extra);
    this.at = end + 3 + extra;
    return out;
  }
}
