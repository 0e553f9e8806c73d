/**
 * SGR (Select Graphic Rendition, `ESC [ … m`) as tmux `capture-pane -e` emits it.
 * Only what the analysers can use is kept: dim (a prompt suggestion is dim text, claude-code.md
 * §6.8), inverse (the app-drawn cursor), bold/italic/underline, and colours as their SGR text
 * ("38;5;244", "31", "48;2;1;2;3"). A default colour (39/49) is the field being absent.
 *
 * Speed matters (every terminal update of every worker is parsed): the state is a few mutable
 * fields, and the CellAttributes handed out are frozen canonical objects from a small cache, so
 * equal looks are the same object and spans merge on a reference compare.
 */
import type { CellAttributes } from './types.ts';

const DIM = 1;
const BOLD = 2;
const INVERSE = 4;
const ITALIC = 8;
const UNDERLINE = 16;

export const PLAIN: CellAttributes = Object.freeze({});

const CACHE_LIMIT = 4096;
/** fg → bg → flags → attributes. Nested maps: no key string is built per escape. */
const cache = new Map<string, Map<string, CellAttributes[]>>();
let cached = 0;

function build(flags: number, fg: string | undefined, bg: string | undefined): CellAttributes {
  if (flags === 0 && fg === undefined && bg === undefined) return PLAIN;
  const a: CellAttributes = {};
  if (flags & DIM) a.dim = true;
  if (flags & BOLD) a.bold = true;
  if (flags & INVERSE) a.inverse = true;
  if (flags & ITALIC) a.italic = true;
  if (flags & UNDERLINE) a.underline = true;
  if (fg !== undefined) a.fg = fg;
  if (bg !== undefined) a.bg = bg;
  return Object.freeze(a);
}

function canonical(flags: number, fg: string | undefined, bg: string | undefined): CellAttributes {
  let byBg = cache.get(fg ?? '');
  if (byBg === undefined) {
    // truecolour input could grow the cache without bound; a reset only costs re-creation
    if (cached >= CACHE_LIMIT) {
      cache.clear();
      cached = 0;
    }
    byBg = new Map();
    cache.set(fg ?? '', byBg);
  }
  let byFlags = byBg.get(bg ?? '');
  if (byFlags === undefined) {
    byFlags = [];
    byBg.set(bg ?? '', byFlags);
  }
  let attrs = byFlags[flags];
  if (attrs === undefined) {
    attrs = build(flags, fg, bg);
    byFlags[flags] = attrs;
    cached++;
  }
  return attrs;
}

/**
 * Colour texts built once and handed out again, so an escape builds no string and the cache
 * lookups in canonical() compare one object with itself (a fresh string is hashed and compared
 * character by character on every lookup).
 */
const CODE_TEXT: string[] = [];
const FG_INDEXED: string[] = [];
const BG_INDEXED: string[] = [];
const UL_INDEXED: string[] = [];

/** `String(code)` for a basic colour code (30-37, 40-47, 90-97, 100-107). */
function codeText(code: number): string {
  return (CODE_TEXT[code] ??= String(code));
}

/** `${base};5;${n}` for base 38/48/58; values beyond the 256-colour palette are built each time. */
function indexedColour(base: number, n: number): string {
  const table = base === 38 ? FG_INDEXED : base === 48 ? BG_INDEXED : UL_INDEXED;
  if (n > 255) return `${base};5;${n}`;
  return (table[n] ??= `${base};5;${n}`);
}

/**
 * Parameters of one SGR, read from `text` between `from` and `to` (not sliced out: an escape
 * allocates nothing) into `out` (reused, never shrunk): numbers (-1 = empty, read as 0), or a raw
 * `:` group for the ITU form. Returns how many were written.
 */
function splitParams(text: string, from: number, to: number, out: (number | string)[]): number {
  let count = 0;
  let n = -1;
  let colon = -1;
  let start = from;
  for (let i = from; i <= to; i++) {
    const c = i < to ? text.charCodeAt(i) : 0x3b;
    if (c === 0x3b /* ; */) {
      out[count++] = colon === -1 ? n : text.slice(start, i);
      n = -1;
      colon = -1;
      start = i + 1;
    } else if (c === 0x3a /* : */) {
      colon = i;
    } else if (c >= 0x30 && c <= 0x39) {
      n = (n === -1 ? 0 : n * 10) + (c - 0x30);
      if (n > 1e6) n = 1e6; // absurd values stay finite
    }
  }
  return count;
}

/** Entry `index` of the first `count` parameters (later entries are leftovers of an earlier escape). */
function paramAt(p: (number | string)[], index: number, count: number): number | string | undefined {
  return index < count ? p[index] : undefined;
}

/** An extended colour in the ITU `:` form (`38:5:n`, `38:2::r:g:b`, `38:2:r:g:b`). */
function colonColour(group: string): { base: number; value: string | undefined } {
  const sub = group.split(':');
  const base = Number.parseInt(sub[0] ?? '', 10);
  let value: string | undefined;
  if (sub[1] === '5' && sub[2]) value = `${base};5;${Number.parseInt(sub[2], 10)}`;
  else if (sub[1] === '2' && sub.length >= 5) {
    const rgb = sub.slice(-3).map((p) => Number.parseInt(p, 10));
    if (rgb.every((x) => Number.isFinite(x))) value = `${base};2;${rgb.join(';')}`;
  } else if (base === 4) value = sub[1] === '0' ? '' : 'on';
  return { base, value };
}

export class SgrState {
  private flags = 0;
  private fg: string | undefined;
  private bg: string | undefined;
  private snapshot: CellAttributes = PLAIN;
  private readonly params: (number | string)[] = [];

  /** The current attributes (a canonical frozen object). */
  get attrs(): CellAttributes {
    return this.snapshot;
  }

  /** Applies the parameter text between `ESC [` and `m`: `text` from `from` to `to` (exclusive). */
  apply(text: string, from = 0, to = text.length): void {
    const { flags, fg, bg } = this;
    const p = this.params;
    const count = splitParams(text, from, to, p);
    for (let i = 0; i < count; i++) {
      const item = p[i]!;
      if (typeof item === 'string') {
        this.applyColonGroup(item);
        continue;
      }
      const code = item === -1 ? 0 : item;
      if (code === 38 || code === 48 || code === 58) {
        i += this.applyExtended(code, p, i, count);
        continue;
      }
      this.applyCode(code);
    }
    // Most escapes repeat the look in force (`ESC[39m` after a default run): no lookup then.
    if (this.flags !== flags || this.fg !== fg || this.bg !== bg) this.snapshot = canonical(this.flags, this.fg, this.bg);
  }

  private setColour(base: number, value: string | undefined): void {
    if (value === undefined) return;
    if (base === 38) this.fg = value;
    else if (base === 48) this.bg = value;
    // 58 (underline colour) is read only to skip its arguments
  }

  /** `38;5;n` / `38;2;r;g;b`; returns how many parameters after the 38 were used. */
  private applyExtended(base: number, p: (number | string)[], i: number, count: number): number {
    const mode = paramAt(p, i + 1, count);
    if (mode === 5) {
      const n = paramAt(p, i + 2, count);
      this.setColour(base, typeof n === 'number' ? indexedColour(base, Math.max(0, n)) : undefined);
      return 2;
    }
    if (mode === 2) {
      const r = paramAt(p, i + 2, count);
      const g = paramAt(p, i + 3, count);
      const b = paramAt(p, i + 4, count);
      const ok = typeof r === 'number' && typeof g === 'number' && typeof b === 'number';
      this.setColour(base, ok ? `${base};2;${Math.max(0, r)};${Math.max(0, g)};${Math.max(0, b)}` : undefined);
      return 4;
    }
    return mode === undefined ? 0 : 1;
  }

  private applyColonGroup(group: string): void {
    const { base, value } = colonColour(group);
    if (base === 4) {
      if (value === '') this.flags &= ~UNDERLINE;
      else this.flags |= UNDERLINE;
    } else if (base === 38 || base === 48 || base === 58) this.setColour(base, value);
  }

  private applyCode(code: number): void {
    if (code === 0) {
      this.flags = 0;
      this.fg = undefined;
      this.bg = undefined;
    } else if (code === 1) this.flags |= BOLD;
    else if (code === 2) this.flags |= DIM;
    else if (code === 3) this.flags |= ITALIC;
    else if (code === 4) this.flags |= UNDERLINE;
    else if (code === 7) this.flags |= INVERSE;
    else if (code === 22) this.flags &= ~(BOLD | DIM);
    else if (code === 23) this.flags &= ~ITALIC;
    else if (code === 24) this.flags &= ~UNDERLINE;
    else if (code === 27) this.flags &= ~INVERSE;
    else if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) this.fg = codeText(code);
    else if (code === 39) this.fg = undefined;
    else if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107)) this.bg = codeText(code);
    else if (code === 49) this.bg = undefined;
    // anything else (blink, hidden, strike, fonts, …) does not matter to a reader: ignored
  }
}
