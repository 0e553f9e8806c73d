/**
 * Notification targets: where a notification goes (an ntfy topic URL, a webhook URL, or a
 * command's argv). URLs may carry tokens, so the file is mode 0600 inside the 0700 state
 * directory, written atomically, and nothing prints or logs a URL whole: `redact` keeps the
 * scheme and host only.
 */
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { RefusedError, UsageError } from '../../contract/errors.ts';

export type Target =
  | { id: string; kind: 'ntfy'; url: string; addedAt: number }
  | { id: string; kind: 'webhook'; url: string; addedAt: number }
  | { id: string; kind: 'command'; argv: string[]; addedAt: number };

export const TARGETS_FILE = 'notify-targets.json';

export function redact(t: Target): string {
  if (t.kind === 'command') return `${t.argv[0]} (+${t.argv.length - 1} args)`;
  try {
    const u = new URL(t.url);
    return `${u.protocol}//${u.host}/…`;
  } catch {
    return '(unparseable url)';
  }
}

/** A target as shown to people and scripts: never the URL or argv in full. */
export function publicTarget(t: Target) {
  return { id: t.id, kind: t.kind, where: redact(t), addedAt: new Date(t.addedAt).toISOString() };
}

/** The longest target URL accepted: an ntfy topic or a webhook is far shorter; 100 KB was taken. */
export const MAX_TARGET_URL = 2048;

/** An IPv6 literal as eight 16-bit groups (`::` expanded, a dotted IPv4 tail folded), or null. */
function ipv6Groups(host: string): number[] | null {
  let h = host.replace(/^\[|\]$/g, '');
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(h);
  if (v4) h = h.slice(0, v4.index) + [((+v4[1]! << 8) | +v4[2]!).toString(16), ((+v4[3]! << 8) | +v4[4]!).toString(16)].join(':');
  const [head, tail] = h.split('::');
  const parts = (x: string | undefined) => (x ? x.split(':') : []);
  const groups = tail === undefined ? parts(head) : [...parts(head), ...Array(8 - parts(head).length - parts(tail).length).fill('0'), ...parts(tail)];
  return groups.length === 8 ? groups.map((g) => parseInt(g, 16)) : null;
}

/** What a literal host is: loopback, link-local, or neither (a name is judged by its spelling only). */
function hostClass(hostname: string): 'loopback' | 'link-local' | null {
  // A fully qualified name's trailing dot names the same host (`localhost.` is localhost, issue 43).
  const h = hostname.toLowerCase().replace(/\.+$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return 'loopback';
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(h);
  if (v4) return v4[1] === '127' || v4[1] === '0' ? 'loopback' : v4[1] === '169' && v4[2] === '254' ? 'link-local' : null;
  if (!h.startsWith('[')) return null;
  const g = ipv6Groups(h);
  if (!g) return null;
  // ::ffff:a.b.c.d is that IPv4 address.
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return hostClass(`${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`);
  if (g.slice(0, 7).every((x) => x === 0) && (g[7] === 1 || g[7] === 0)) return 'loopback';
  if ((g[0]! & 0xffc0) === 0xfe80) return 'link-local';
  return null;
}

/**
 * A notification URL within its bounds (issue 24 item 7), each refusal naming the bound: http or
 * https (ntfy is either), at most MAX_TARGET_URL characters, port 1–65535, never link-local
 * (169.254.0.0/16, fe80::/10: the cloud metadata service answers there), loopback only with
 * `--allow-loopback` (a local service of the person's, said on purpose).
 */
function checkUrl(raw: string, kind: string, opts: { allowLoopback?: boolean }): string {
  if (raw.length > MAX_TARGET_URL) throw new UsageError('bad-target-url', `${kind} URL is ${raw.length} characters; the bound is ${MAX_TARGET_URL}.`, { length: raw.length, max: MAX_TARGET_URL });
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new UsageError('bad-target-url', `${kind} needs an http(s) URL with a port in 1–65535, e.g. hand notify add ${kind} https://ntfy.sh/my-topic (the value given is not one).`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError('bad-target-url', `${kind} needs an http or https URL (got ${u.protocol}).`);
  if (u.port !== '' && (Number(u.port) < 1 || Number(u.port) > 65535)) throw new UsageError('bad-target-url', `${kind} URL port ${u.port} is outside 1–65535.`, { port: u.port });
  const cls = hostClass(u.hostname);
  if (cls === 'link-local') throw new UsageError('bad-target-url', `${kind} URL host ${u.hostname} is link-local (169.254.0.0/16 or fe80::/10, where cloud metadata answers); a notification never goes there.`, { host: u.hostname });
  if (cls === 'loopback' && !opts.allowLoopback) throw new UsageError('bad-target-url', `${kind} URL host ${u.hostname} is this machine (loopback); pass --allow-loopback to send notifications to a local service on purpose.`, { host: u.hostname });
  return u.toString();
}

export function makeTarget(kind: string, args: string[], now = Date.now(), opts: { allowLoopback?: boolean } = {}): Target {
  if (kind === 'ntfy' || kind === 'webhook') {
    if (args.length !== 1) throw new UsageError('bad-target', `hand notify add ${kind} takes exactly one URL.`);
    const url = checkUrl(args[0]!, kind, opts);
    return { id: `${kind}-${createHash('sha256').update(url).digest('hex').slice(0, 8)}`, kind, url, addedAt: now };
  }
  if (kind === 'command') {
    if (args.length === 0 || !args[0]) throw new UsageError('bad-target', 'hand notify add command takes the program and its arguments, e.g. hand notify add command notify-send-json --urgent (argv, never a shell string).');
    return { id: `command-${createHash('sha256').update(JSON.stringify(args)).digest('hex').slice(0, 8)}`, kind, argv: args, addedAt: now };
  }
  throw new UsageError('bad-target-kind', `target kind ${JSON.stringify(kind)} is unknown. Use ntfy <topic-url>, webhook <url> or command <argv…>.`, { kind });
}

export function createTargetFile(home: string) {
  const path = join(home, TARGETS_FILE);
  let cache: Target[] | null = null;
  function load(): Target[] {
    if (cache) return cache;
    if (!existsSync(path)) return (cache = []);
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8'));
      cache = Array.isArray(parsed) ? (parsed as Target[]) : [];
    } catch (err) {
      throw new RefusedError('targets-unreadable', `the notification targets file ${path} is not readable JSON (${(err as Error).message}). Move it aside and add the targets again.`, { path });
    }
    return cache;
  }
  function save(list: Target[]) {
    const tmp = `${path}.tmp-${process.pid}`;
    writeFileSync(tmp, `${JSON.stringify(list, null, 2)}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, path);
    cache = list;
  }
  return {
    path,
    list: load,
    add(t: Target): { target: Target; added: boolean } {
      const list = load();
      const same = list.find((x) => x.id === t.id);
      if (same) return { target: same, added: false };
      save([...list, t]);
      return { target: t, added: true };
    },
    remove(id: string): Target {
      const list = load();
      const t = list.find((x) => x.id === id);
      if (!t) throw new RefusedError('unknown-target', `no notification target ${JSON.stringify(id)}. \`hand notify list\` shows the ids.`, { id });
      save(list.filter((x) => x.id !== id));
      return t;
    },
  };
}

export type TargetFile = ReturnType<typeof createTargetFile>;
