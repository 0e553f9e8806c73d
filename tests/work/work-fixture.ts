/** A real SQLite fleet database (migrated by openStore) with the work stores on it, in a temp dir. */
import { afterEach } from 'vitest';
import { join } from 'node:path';
import { openStore } from '../../persistence/sqlite-store.ts';
import { openWorkStores, type WorkStores } from '../../persistence/work/index.ts';
import { makeTempDir } from '../helpers/temp.ts';

export interface WorkDb {
  dir: string;
  dbPath: string;
  stores: WorkStores;
  /** Closes and opens the database again (what a daemon restart does to it). */
  reopen(): WorkStores;
  cleanup(): void;
}

export function makeWorkDb(label: string, now?: () => number): WorkDb {
  const tmp = makeTempDir(label);
  const dbPath = join(tmp.path, 'fleet.db');
  const fleet = openStore(dbPath);
  fleet.upsertProject({ name: 'shop', repo: '/srv/shop', posture: 'local-only', yolo: true, registeredAt: 1 });
  fleet.close();
  const w: WorkDb = {
    dir: tmp.path,
    dbPath,
    stores: openWorkStores(dbPath, now),
    reopen() {
      w.stores.close();
      openStore(dbPath).close(); // migrations run again, as at every daemon start
      w.stores = openWorkStores(dbPath, now);
      return w.stores;
    },
    cleanup() {
      w.stores.close();
      tmp.cleanup();
    },
  };
  return w;
}

/** Registers the cleanup of every database the returned function makes, after each test; call once at the top of a test file. */
export function useWorkDb(): (label: string, now?: () => number) => WorkDb {
  const made: WorkDb[] = [];
  afterEach(() => {
    for (const db of made.splice(0)) db.cleanup();
  });
  return (label, now) => {
    const db = makeWorkDb(label, now);
    made.push(db);
    return db;
  };
}
