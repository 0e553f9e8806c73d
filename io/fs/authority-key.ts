/**
 * The person's authority on the daemon (issue 24 item 1): the socket could not tell the person's
 * `hand approve` from a worker's, so a worker landed another project's branch. The daemon writes
 * 32 random bytes to `<state>/authority.key` (0600, in the 0700 state directory) at its first
 * start; the person's faces read it and present it as a request field (never argv, never an env
 * var: both are visible to, or inherited by, what a worker runs). A worker's sandbox denies reads
 * of the state directory, so it cannot present it (docs/2026-12-01-workers-get-no-secret-and-no-voice.md).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from './private-files.ts';

export const AUTHORITY_KEY_FILE = 'authority.key';
const KEY_BYTES = 32;

export function authorityKeyPath(home: string): string {
  return join(home, AUTHORITY_KEY_FILE);
}

/**
 * The daemon's key, made at its first start. Written whole to a private temporary file and then
 * linked into place: a reader never sees half a key, and of two racing starts the first link
 * wins and both read the winner's (link fails with EEXIST where a rename would overwrite).
 */
export function ensureAuthorityKey(home: string): Buffer {
  const path = authorityKeyPath(home);
  const existing = readKey(path);
  if (existing) return existing;
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'wx', PRIVATE_FILE_MODE);
  try {
    writeSync(fd, randomBytes(KEY_BYTES));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(tmp);
  }
  const key = readKey(path);
  if (!key) throw new Error(`${path} is not a ${KEY_BYTES}-byte key; remove it and start the daemon again to make a new one`);
  return key;
}

/** The key as a face presents it (hex), or null when this process cannot read it. */
export function readAuthority(home: string): string | null {
  return readKey(authorityKeyPath(home))?.toString('hex') ?? null;
}

function readKey(path: string): Buffer | null {
  try {
    const b = readFileSync(path);
    return b.length === KEY_BYTES ? b : null;
  } catch {
    return null;
  }
}

/** Whether `presented` is the key (constant time; anything else, absent included, is not). */
export function presentsAuthority(key: Buffer, presented: unknown): boolean {
  if (typeof presented !== 'string' || presented.length !== KEY_BYTES * 2 || !/^[0-9a-f]+$/.test(presented)) return false;
  return timingSafeEqual(Buffer.from(presented, 'hex'), key);
}
