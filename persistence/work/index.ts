/**
 * The work stores on their own connection to the fleet's SQLite file (WAL: the fleet store's
 * connection and this one never block each other's readers). The schema is the fleet store's
 * (migration 4); this module only opens what `openStore` has already migrated.
 */
import Database from 'better-sqlite3';
import { createBacklogStore } from './backlog-store.ts';
import { createDecisionStore } from './decision-store.ts';
import { createAwayStore } from './away-store.ts';
import { createNotifyStore } from './notify-store.ts';

export function openWorkStores(dbPath: string, now: () => number = Date.now) {
  const db = new Database(dbPath, { timeout: 5000 });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return {
    db,
    backlog: createBacklogStore(db, now),
    decisions: createDecisionStore(db, now),
    away: createAwayStore(db, now),
    notify: createNotifyStore(db, now),
    close() {
      if (db.open) db.close();
    },
  };
}

export type WorkStores = ReturnType<typeof openWorkStores>;
