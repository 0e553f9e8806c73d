/**
 * The daemon's side of persistence/state-integrity.ts: the database is checked before it is
 * opened, the manifest follows every change of how many workers and projects it holds, and a
 * backup is taken FIRST_BACKUP_AFTER_MS after start (off the path of a resume) and every BACKUP_EVERY_MS. A refusal leaves one line on the daemon's
 * stdout (`daemon.out`) that the starting CLI turns back into the same typed refusal.
 */
import { RefusedError } from '../contract/errors.ts';
import type { SqliteFleetStore } from '../persistence/sqlite-store.ts';
import {
  BACKUP_EVERY_MS, checkStateBeforeOpen, restoreHint, takeBackup, writeManifest, type DbCondition, type StatePaths,
} from '../persistence/state-integrity.ts';

import { REFUSAL_LINE } from '../contract/refusal-line.ts';
import { stampStateIdentity } from '../persistence/home-identity.ts';

/** Opens the store only after the state directory's database passed the check; refusals name the backup. */
export function openCheckedStore(p: StatePaths, open: (db: string) => SqliteFleetStore): { store: SqliteFleetStore; found: DbCondition; dbId: string | null } {
  const found = checkStateBeforeOpen(p);
  try {
    const store = open(p.db);
    try {
      // The directory and its database name each other from the first start on (issue 43): the
      // manifest records the database's id even when there was no database to read before.
      return { store, found, dbId: stampStateIdentity(p.home, p.db).dbId };
    } catch (err) {
      store.close();
      throw err;
    }
  } catch (err) {
    // A failed migration or an unopenable file: the same way back as a lost database.
    if (err instanceof RefusedError && !err.message.includes('restore-db')) {
      throw new RefusedError(err.code, `${err.message} Nothing was changed. ${restoreHint(p.home)}`, err.details);
    }
    throw err;
  }
}

export interface StateRecord {
  store: SqliteFleetStore;
  /** Stops the timers and takes a last backup (before the store is closed). */
  stop(): Promise<void>;
}

/** A backup follows a new worker or project this long after (one per burst of dispatches). */
const BACKUP_AFTER_CHANGE_MS = 2_000;

/** Keeps the manifest current and backups rotating for an opened store. */
/** The first backup of a run waits this long: never on the path of a resume (issue 26), never skipped. */
export const FIRST_BACKUP_AFTER_MS = 5_000;

/** `first`: what the check before opening found (read once: SQLite's quick_check is not free on a big database). */
export function keepStateRecord(opened: { store: SqliteFleetStore; found: DbCondition; dbId: string | null }, p: StatePaths, log: (obj: Record<string, unknown>, msg: string) => void): StateRecord {
  const { store, found: first, dbId } = opened;
  let workers = first.state === 'ok' ? first.workers : store.listWorkers().length;
  let projects = first.state === 'ok' ? first.projects : store.listProjects().length;
  const record = () => {
    try {
      writeManifest(p.home, { dbId, schemaVersion: store.schemaVersion, workers, projects });
    } catch (err) {
      // A full disk shows here first: said in the log, and the database itself stays the truth.
      log({ err: String(err) }, 'could not write the state manifest');
    }
  };
  record();
  let running: Promise<void> | null = null;
  let soon: ReturnType<typeof setTimeout> | null = null;
  const backup = (): Promise<void> => {
    if (workers === 0 && projects === 0) return Promise.resolve();
    running ??= takeBackup(p)
      .then(
        (b) => log({ backup: b.path, bytes: b.bytes }, 'database backed up'),
        (err) => log({ err: String(err) }, 'database backup failed'),
      )
      .finally(() => {
        running = null;
      });
    return running;
  };
  /** After a change of the fleet's shape (a worker or project added), once things have settled. */
  const backupSoon = () => {
    if (soon) return;
    soon = setTimeout(() => {
      soon = null;
      void backup();
    }, BACKUP_AFTER_CHANGE_MS);
    soon.unref();
  };
  const firstBackup = setTimeout(() => void backup(), FIRST_BACKUP_AFTER_MS);
  firstBackup.unref();
  const timer = setInterval(() => void backup(), BACKUP_EVERY_MS);
  timer.unref();
  const wrapped: SqliteFleetStore = Object.create(store) as SqliteFleetStore;
  Object.assign(wrapped, {
    insertWorker(w: Parameters<SqliteFleetStore['insertWorker']>[0]) {
      store.insertWorker(w);
      workers++;
      record();
      backupSoon();
    },
    deleteWorker(id: string) {
      const had = store.getWorker(id) !== null;
      store.deleteWorker(id);
      if (had) workers--;
      record();
    },
    upsertProject(pr: Parameters<SqliteFleetStore['upsertProject']>[0]) {
      store.upsertProject(pr);
      projects = store.listProjects().length;
      record();
      backupSoon();
    },
  });
  return {
    store: wrapped,
    async stop() {
      clearInterval(timer);
      clearTimeout(firstBackup);
      if (soon) clearTimeout(soon);
      await running;
      // A clean stop leaves the newest state backed up.
      await backup();
    },
  };
}

/** The line a refusing daemon prints for the CLI that started it. */
export function refusalLine(err: RefusedError): string {
  return `${REFUSAL_LINE}${JSON.stringify({ code: err.code, message: err.message, details: err.details })}\n`;
}
