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
import { createSessionStore } from './session-store.ts';
import { COMMIT_BUSY_TIMEOUT_MS } from '../commit-queue.ts';

export function openWorkStores(dbPath: string, now: () => number = Date.now) {
  // Short, like the fleet store's: a write that waits on another process's lock blocks the
  // daemon's event loop for as long as it waits (better-sqlite3 is synchronous). A refused
  // write is a refused request (contract/protocol.ts), never a stalled daemon.
  const db = new Database(dbPath, { timeout: COMMIT_BUSY_TIMEOUT_MS });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${COMMIT_BUSY_TIMEOUT_MS}`);
  return {
    db,
    backlog: createBacklogStore(db, now),
    decisions: createDecisionStore(db, now),
    away: createAwayStore(db, now),
    notify: createNotifyStore(db, now),
    sessions: createSessionStore(db, now),
    close() {
      if (db.open) db.close();
    },
  };
}

export type WorkStores = ReturnType<typeof openWorkStores>;
