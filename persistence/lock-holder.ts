/**
 * Who holds the state directory, from `<home>/daemon.pid` (it names the holder; the lock itself
 * is home-lock.ts's SQLite lock). Kept apart from the lock so the CLI can read it on every call
 * without loading SQLite's native module.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LockHolder {
  pid: number;
  since: number;
}

export function readLockHolder(home: string): LockHolder | null {
  try {
    const v = JSON.parse(readFileSync(join(home, 'daemon.pid'), 'utf8')) as Partial<LockHolder>;
    return typeof v.pid === 'number' && typeof v.since === 'number' ? { pid: v.pid, since: v.since } : null;
  } catch {
    return null;
  }
}

/** Whether a process with this pid exists (EPERM: it does, owned by another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
