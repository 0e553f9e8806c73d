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

function checkUrl(raw: string, kind: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new UsageError('bad-target-url', `${kind} needs an http(s) URL, e.g. hand notify add ${kind} https://ntfy.sh/my-topic (the value given is not a URL).`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError('bad-target-url', `${kind} needs an http or https URL (got ${u.protocol}).`);
  return u.toString();
}

export function makeTarget(kind: string, args: string[], now = Date.now()): Target {
  if (kind === 'ntfy' || kind === 'webhook') {
    if (args.length !== 1) throw new UsageError('bad-target', `hand notify add ${kind} takes exactly one URL.`);
    const url = checkUrl(args[0]!, kind);
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
