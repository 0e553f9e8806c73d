/**
 * The address the person's phone reaches the review page by (issue 42 item 1): their tailnet
 * name, an ssh reverse tunnel's far end, a reverse proxy they run. kingshand never opens a port to
 * the network itself: the daemon keeps listening on 127.0.0.1, and this URL only names the door
 * the person's own tunnel opens onto it. Stored in the state directory (0600, one small JSON
 * file) so a restart keeps it; links in notifications are made on it, and the page answers a
 * request whose Host is this URL's host as it answers a loopback one (DNS rebinding, any other
 * Host, stays refused).
 */
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../contract/errors.ts';

export const PUBLIC_URL_FILE = 'review-public-url.json';

export interface PublicUrl {
  /** The base as the person gave it, normalised to `scheme://host[:port]` (no path, no query). */
  base: string;
  /** What a request through the tunnel carries as its Host header: `host[:port]`, lower case. */
  host: string;
  /** The Origin a browser sends from it. */
  origin: string;
}

/** A public base URL within its bounds, each refusal naming the value and the fix. */
export function parsePublicUrl(raw: string): PublicUrl {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new UsageError('bad-public-url', `--public-url ${JSON.stringify(raw.slice(0, 80))} is not a URL; give the address your tunnel answers on, e.g. hand review --public-url https://laptop.tailnet.ts.net`, { url: raw.slice(0, 80) });
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new UsageError('bad-public-url', `--public-url needs https:// (or http:// inside an encrypted tailnet); got ${u.protocol}`, { protocol: u.protocol });
  if (u.username || u.password) throw new UsageError('bad-public-url', '--public-url must not carry a user or password: the page signs in with its own links', {});
  if (u.search || u.hash || (u.pathname !== '/' && u.pathname !== '')) throw new UsageError('bad-public-url', `--public-url is the tunnel's base only (scheme and host); drop the path ${JSON.stringify(u.pathname + u.search)}: the page's addresses start at /`, { path: u.pathname });
  return { base: `${u.protocol}//${u.host}`, host: u.host.toLowerCase(), origin: u.origin };
}

export function publicUrlPath(home: string): string {
  return join(home, PUBLIC_URL_FILE);
}

/** The stored public URL, or null when none was set (or the file is unreadable: links stay local). */
export function readPublicUrl(home: string): PublicUrl | null {
  const p = publicUrlPath(home);
  if (!existsSync(p)) return null;
  try {
    const parsed = JSON.parse(readFileSync(p, 'utf8')) as { base?: unknown };
    return typeof parsed.base === 'string' ? parsePublicUrl(parsed.base) : null;
  } catch {
    return null;
  }
}

/** Stores (or with null, forgets) the public URL: atomically, 0600. */
export function writePublicUrl(home: string, url: PublicUrl | null): void {
  const p = publicUrlPath(home);
  if (url === null) return rmSync(p, { force: true });
  const tmp = `${p}.tmp-${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify({ base: url.base })}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, p);
}
