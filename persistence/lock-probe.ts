/**
 * Is the home lock held right now (by some live daemon)? Read from outside: a daemon holds
 * daemon.lock in EXCLUSIVE mode, so a read of it is refused as busy. The probe takes at most a
 * momentary shared lock and never writes. Used before signalling the pid named in daemon.pid, so
 * a stale pid file whose pid was reused by another program is never signalled.
 */
import { createRequire } from 'node:module';
import type DatabaseType from 'better-sqlite3';

// Loaded on first use: every `hand` command imports this module, few ask the lock, and SQLite's
// native module costs a start-up the commands that never touch it should not pay.
const requireHere = createRequire(import.meta.url);
const Database = (): typeof DatabaseType => requireHere('better-sqlite3') as typeof DatabaseType;
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isLockedError } from '../contract/store-errors.ts';

export function homeLockHeld(home: string): boolean {
  const lockPath = join(home, 'daemon.lock');
  if (!existsSync(lockPath)) return false;
  // Outside the try: a SQLite that cannot load is a failure to report, never "not held".
  const Sqlite = Database();
  let db: DatabaseType.Database | null = null;
  try {
    db = new Sqlite(lockPath, { readonly: true, fileMustExist: true, timeout: 0 });
    db.prepare('SELECT count(*) FROM holder').get();
    return false;
  } catch (err) {
    return isLockedError(err);
  } finally {
    db?.close();
  }
}
