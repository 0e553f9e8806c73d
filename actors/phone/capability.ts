/**
 * A capability (issue 42 item 2): one signed, expiring permission to do exactly one thing for
 * one worker — pick option 2 of the dialog with fingerprint F, give answer "Postgres" to decision
 * K, or open the worker's page once. It is what a notification's action button carries, never
 * the page's standing token: whoever reads it off a lock screen can do that one thing once, within
 * its minutes, and nothing else.
 *
 * Its form is `<payload>.<mac>`, both base64url: the payload is JSON naming the kind, the worker,
 * what it is bound to, its expiry, a random nonce and the daemon run that made it; the mac is
 * HMAC-SHA256 over the payload's bytes with a 32-byte key kept in the state directory (0600),
 * never in an argv, an environment or a log. Checking the mac first means nothing in a forged or
 * truncated capability is believed; the run id lets a restarted daemon tell a genuine capability
 * of an earlier run (refused: the daemon restarted) from a forgery (refused: not ours).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CAPABILITY_KEY_FILE = 'phone-capability.key';
/** How long a capability is good for unless the person sets HAND_PHONE_CAPABILITY_TTL (default 15 min). */
export const CAPABILITY_TTL_MS = 15 * 60_000;
/** Longer than any capability we make: a longer string is refused unread. */
export const MAX_CAPABILITY_CHARS = 2048;

export type CapabilityKind = 'answer' | 'decide' | 'view';

export interface CapabilityPayload {
  v: 1;
  k: CapabilityKind;
  /** The worker it acts on. */
  w: string;
  /** answer: the dialog's fingerprint; decide: the decision's key; view: ''. */
  b: string;
  /** answer: the option's number; decide: the option's index in the decision's options; view: 0. */
  o: number;
  /** Expiry, epoch ms. */
  e: number;
  /** Random: what makes it single-use. */
  n: string;
  /** The notification it rode in (random): its answers are one group, the first used voids the rest. */
  g: string;
  /** The daemon run that made it. */
  r: string;
}

/** The state directory's capability key: read, or made once (0600) when absent or malformed. */
export function loadOrCreateCapabilityKey(home: string): Buffer {
  const p = join(home, CAPABILITY_KEY_FILE);
  if (existsSync(p)) {
    const t = readFileSync(p, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(t)) {
      chmodSync(p, 0o600);
      return Buffer.from(t, 'hex');
    }
  }
  const key = randomBytes(32);
  writeFileSync(p, `${key.toString('hex')}\n`, { mode: 0o600 });
  chmodSync(p, 0o600);
  return key;
}

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest();

export function signCapability(key: Buffer, p: CapabilityPayload): string {
  const payload = Buffer.from(JSON.stringify(p)).toString('base64url');
  return `${payload}.${mac(key, payload).toString('base64url')}`;
}

/** The payload when the mac is ours and the payload well formed; null for anything else (forged, truncated, junk). */
export function openCapability(key: Buffer, cap: string): CapabilityPayload | null {
  if (typeof cap !== 'string' || cap.length > MAX_CAPABILITY_CHARS) return null;
  const dot = cap.indexOf('.');
  if (dot <= 0 || dot !== cap.lastIndexOf('.')) return null;
  const payload = cap.slice(0, dot);
  const given = Buffer.from(cap.slice(dot + 1), 'base64url');
  const want = mac(key, payload);
  if (given.length !== want.length || !timingSafeEqual(given, want)) return null;
  try {
    const p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<CapabilityPayload>;
    const kindOk = p.k === 'answer' || p.k === 'decide' || p.k === 'view';
    if (p.v !== 1 || !kindOk || typeof p.w !== 'string' || typeof p.b !== 'string' || !Number.isInteger(p.o) || !Number.isFinite(p.e) || typeof p.n !== 'string' || typeof p.g !== 'string' || typeof p.r !== 'string') return null;
    return p as CapabilityPayload;
  } catch {
    return null;
  }
}

export function capabilityTtlMs(env: Record<string, string | undefined>): number {
  const raw = Number(env.HAND_PHONE_CAPABILITY_TTL_MS);
  return Number.isFinite(raw) && raw > 0 ? Math.min(raw, 24 * 3600_000) : CAPABILITY_TTL_MS;
}

export const newNonce = () => randomBytes(12).toString('base64url');
