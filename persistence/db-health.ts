/**
 * Is the fleet database whole? Garbage inside fleet.db used to pass the open and the migration
 * (they read only the first pages) and fail later, mid-restore, as a stack trace. SQLite's
 * quick_check reads every page (milliseconds for a fleet's database), so the damage is named
 * when the store opens and `hand doctor` can report it without starting a daemon.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';

/** quick_check's complaint about an open database, or null when it is whole. */
export function damageOf(db: Database.Database): string | null {
  const rows = db.pragma('quick_check(5)') as { quick_check: string }[];
  // One line for a message: quick_check's rows may hold several lines and a "*** in database" banner.
  const problems = rows
    .filter((r) => r.quick_check !== 'ok')
    .flatMap((r) => r.quick_check.split('\n'))
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('***'));
  if (problems.length === 0) return rows.length && rows.every((r) => r.quick_check === 'ok') ? null : 'quick_check failed';
  return `malformed: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`;
}

/** For doctor: opens read-only and writes nothing; null when the file is absent or whole. */
export function inspectDatabase(dbPath: string): string | null {
  if (!existsSync(dbPath)) return null;
  let db: Database.Database | null = null;
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true });
    return damageOf(db);
  } catch (err) {
    return (err as Error).message;
  } finally {
    db?.close();
  }
}
