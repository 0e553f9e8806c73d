/**
 * The one edit kingshand makes to a person's Codex `config.toml`: mark a worktree trusted,
 * `[projects."<path>"] trust_level = "trusted"`, the shape Codex 0.169.0 writes itself when a
 * person answers its "Trust this folder?" screen. Pure text edit, no TOML round trip: every
 * other byte of the file (comments, key order, formatting) stays as the person left it. A file
 * whose shape this cannot edit safely (an inline `projects = { … }` table, the path under a
 * `[projects]` table or a dotted key) is refused, never rewritten.
 *
 * Why the file and not a `-c` override: Codex 0.169.0 ignores
 * `-c 'projects."<path>".trust_level="trusted"'` for its trust screen (checked by hand under tmux:
 * the screen still came up), so the grant has to be in the user layer.
 */
export type TrustEdit =
  | { kind: 'already' }
  | { kind: 'edited'; text: string }
  | { kind: 'refused'; why: string };

/** The key as a TOML basic string (what Codex writes): `"` and `\` and controls escaped. */
export function tomlBasicString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c < 0x20 || c === 0x7f) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

const HEADER = /^\s*\[\s*projects\s*\.\s*("(?:[^"\\]|\\.)*"|'[^']*')\s*\]\s*(?:#.*)?$/;
const ANY_HEADER = /^\s*\[/;
const TRUST_LINE = /^(\s*trust_level\s*=\s*)(.*?)(\s*(?:#.*)?)$/;
const INLINE_PROJECTS = /^\s*projects\s*=/;

/** The decoded key of a TOML string token, or null when it is not one this reads. */
function decodeKey(token: string): string | null {
  if (token.startsWith("'")) return token.slice(1, -1);
  try {
    const decoded: unknown = JSON.parse(token.replace(/\\U([0-9a-fA-F]{8})/g, (_m, hex: string) => String.fromCodePoint(parseInt(hex, 16))));
    return typeof decoded === 'string' ? decoded : null;
  } catch {
    return null;
  }
}

function splitLines(text: string): { lines: string[]; eol: string } {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return { lines: text.split(/\r?\n/), eol };
}

/** Where the trust entry of `path` lives in `lines`: its table header row and trust row, if any. */
function findEntry(lines: readonly string[], path: string): { header: number; trust: number } | null {
  for (let i = 0; i < lines.length; i++) {
    const m = HEADER.exec(lines[i]!);
    if (!m || decodeKey(m[1]!) !== path) continue;
    for (let j = i + 1; j < lines.length && !ANY_HEADER.test(lines[j]!); j++) {
      if (TRUST_LINE.test(lines[j]!)) return { header: i, trust: j };
    }
    return { header: i, trust: -1 };
  }
  return null;
}

/** The edit that makes `path` trusted in `text` (the file's content; '' for no file). */
export function trustEdit(text: string, path: string): TrustEdit {
  const { lines, eol } = splitLines(text);
  if (lines.some((l) => INLINE_PROJECTS.test(l))) {
    return { kind: 'refused', why: 'holds projects as an inline table (projects = { … })' };
  }
  const entry = findEntry(lines, path);
  const line = `trust_level = "trusted"`;
  if (entry === null) {
    // The path written any other way (under [projects], as a dotted key) is not ours to guess at.
    const quoted = [tomlBasicString(path), `'${path}'`];
    if (lines.some((l) => quoted.some((q) => l.includes(q)))) {
      return { kind: 'refused', why: `names ${path} in a form other than a [projects."…"] table` };
    }
    const body = text === '' || text.endsWith('\n') ? text : `${text}${eol}`;
    const gap = body === '' ? '' : eol;
    return { kind: 'edited', text: `${body}${gap}[projects.${tomlBasicString(path)}]${eol}${line}${eol}` };
  }
  if (entry.trust === -1) {
    lines.splice(entry.header + 1, 0, line);
    return { kind: 'edited', text: lines.join(eol) };
  }
  const m = TRUST_LINE.exec(lines[entry.trust]!)!;
  if (/^["']trusted["']$/.test(m[2]!)) return { kind: 'already' };
  lines[entry.trust] = `${m[1]}"trusted"${m[3]}`;
  return { kind: 'edited', text: lines.join(eol) };
}

/** True when `text` says `path` is trusted (the re-read check of a written file). */
export function isTrusted(text: string, path: string): boolean {
  const { lines } = splitLines(text);
  const entry = findEntry(lines, path);
  if (entry === null || entry.trust === -1) return false;
  return /^["']trusted["']$/.test(TRUST_LINE.exec(lines[entry.trust]!)![2]!);
}
