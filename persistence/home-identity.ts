/**
 * Which state directory a fleet database belongs to (issue 43). A database carries an id of its
 * own (migration 5), but that only tells one database from another: a state directory's first
 * daemon recorded no id in its manifest (the database did not exist when it looked), so another
 * directory's valid database put in its place was adopted, and the manifest then rewritten to
 * name it. Now the directory has an identity too — `<home>/home.id`, 32 hex digits made at its
 * first start, 0600 — and its database records that identity (migration 10: store_identity's
 * home_id, and home_path, where it was last opened, for the message that names a stranger).
 *
 * Moving a whole state directory keeps both (the file goes with it); a database copied into
 * another directory that held a fleet is a stranger there; one copied into a directory that never
 * held anything takes that directory (it brings its identity along).
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { renameSync, writeFileSync } from 'node:fs';
import { readUntrustedFileSync } from '../io/fs/untrusted-file.ts';

export const HOME_ID_FILE = 'home.id';
const HOME_ID = /^[0-9a-f]{32}$/;

/** The directory's identity, or null when it has none yet (a first start, or a directory from before it). */
export function readHomeId(home: string): string | null {
  try {
    const r = readUntrustedFileSync(join(home, HOME_ID_FILE), { maxBytes: 256 });
    if (r.kind !== 'read') return null;
    const id = r.text.trim();
    return HOME_ID.test(id) ? id : null;
  } catch {
    return null;
  }
}

/** Temp file + rename, as the manifest (the home itself may be a link the person made to another disk). */
function writeHomeId(home: string, id: string): void {
  const path = join(home, HOME_ID_FILE);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${id}\n`, { mode: 0o600, flag: 'w' });
  renameSync(tmp, path);
}

export interface StampedIdentity {
  dbId: string | null;
  /** Null when it could not be written now (a full disk): the next start writes it. */
  homeId: string | null;
}

/**
 * After the check before opening passed: the directory gets its identity (made, or taken from a
 * database that brought one into a directory without one), and the database records it where it
 * recorded none. Run on an opened, migrated database; a second short connection (WAL: the
 * daemon's own is not disturbed).
 */
export function stampStateIdentity(home: string, dbPath: string): StampedIdentity {
  const db = new Database(dbPath, { fileMustExist: true, timeout: 5000 });
  try {
    const row = db.prepare('SELECT db_id, home_id FROM store_identity WHERE id = 1').get() as { db_id: string; home_id: string | null } | undefined;
    const dbId = row?.db_id ?? null;
    // A full or read-only disk must not keep the fleet from starting: the identity is written
    // at the next start that can (the check before opening had nothing to hold against it).
    try {
      let homeId = readHomeId(home);
      if (homeId === null) {
        homeId = row?.home_id && HOME_ID.test(row.home_id) ? row.home_id : randomBytes(16).toString('hex');
        writeHomeId(home, homeId);
      }
      // Only a database that named no directory takes this one: the check before opening refused
      // one that names another, and nothing here ever renames a database's directory.
      db.prepare('UPDATE store_identity SET home_id = ?, home_path = ? WHERE id = 1 AND (home_id IS NULL OR home_id = ?)').run(homeId, home, homeId);
      return { dbId, homeId };
    } catch {
      return { dbId, homeId: null };
    }
  } finally {
    db.close();
  }
}
