/**
 * The per-worker hook capability (issue 24 item 7): `HAND_WORKER_ID=a1 hand hook Notification`
 * run by anything made a1 `disputed` — the id alone spoke for any worker. Now the daemon hands
 * each worker, at launch, a capability only that worker holds (in its launch environment, which
 * travels in a 0600 file, never argv), and the hook method refuses a note without the right one.
 *
 * The capability is HMAC-SHA256(key, worker id) with a random key kept 0600 in the state
 * directory: it survives a daemon restart (a worker launched before it still speaks) without a
 * table of tokens, and one worker's capability says nothing about another's.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from '../../fs/private-files.ts';

/** The env name the hook reads its capability from. */
export const HOOK_CAP_ENV = 'HAND_HOOK_CAP';
const KEY_FILE = 'hook.key';

function hookKey(stateDir: string): Buffer {
  const path = join(stateDir, KEY_FILE);
  if (!existsSync(path)) {
    try {
      writePrivateFile(path, randomBytes(32).toString('hex'));
    } catch {
      // Another daemon call wrote it first: read theirs.
    }
  }
  return Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
}

/** The capability a worker's hooks present. */
export function hookCapability(stateDir: string, workerId: string): string {
  return createHmac('sha256', hookKey(stateDir)).update(`hook:${workerId}`).digest('hex').slice(0, 32);
}

/** Whether `cap` is this worker's capability (compared in constant time). */
export function isWorkersCapability(stateDir: string, workerId: string, cap: string | undefined): boolean {
  if (typeof cap !== 'string' || cap.length !== 32) return false;
  const want = Buffer.from(hookCapability(stateDir, workerId));
  const got = Buffer.from(cap);
  return got.length === want.length && timingSafeEqual(got, want);
}
