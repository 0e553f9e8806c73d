/**
 * Is the home lock held right now (by some live daemon)? Read from outside: a daemon holds
 * daemon.lock in EXCLUSIVE mode, so a read of it is refused as busy. The probe takes at most a
 * momentary shared lock and never writes. Used before signalling the pid named in daemon.pid, so
 * a stale pid file whose pid was reused by another program is never signalled.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export function homeLockHeld(home: string): boolean {
  const lockPath = join(home, 'daemon.lock');
  if (!existsSync(lockPath)) return false;
  let db: Database.Database | null = null;
  try {
    db = new Database(lockPath, { readonly: true, fileMustExist: true, timeout: 0 });
    db.prepare('SELECT count(*) FROM holder').get();
    return false;
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
  } finally {
    db?.close();
  }
}
