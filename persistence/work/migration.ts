/**
 * Schema version 4: the work that outlives a conversation (issue 13) — backlog items and their
 * dependency edges, held decisions, away mode and its append-only journal, and the persisted
 * delivery state of notifications (so nothing is delivered twice across a daemon restart).
 * Notification targets are NOT here: they carry secrets and live in a 0600 file (notify-targets.ts).
 */
import type { Migration } from '../migrations.ts';

export const WORK_MIGRATION: Migration = {
  version: 4,
  description: 'backlog, held decisions, away mode and journal, notification deliveries',
  up(db) {
    db.exec(`
      CREATE TABLE backlog_items (
        seq        INTEGER PRIMARY KEY AUTOINCREMENT,
        id         TEXT NOT NULL,
        project    TEXT NOT NULL,
        title      TEXT NOT NULL,
        brief      TEXT,
        state      TEXT NOT NULL CHECK (state IN ('queued', 'in-flight', 'done', 'dropped')),
        hold_reason TEXT,
        hold_kind  TEXT CHECK (hold_kind IS NULL OR hold_kind IN ('person', 'external', 'load', 'parked', 'future')),
        worker     TEXT,
        pr         TEXT,
        note       TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        closed_at  INTEGER
      );
      -- One OPEN item per id; closed ones keep their history under the same id.
      CREATE UNIQUE INDEX backlog_one_open_id ON backlog_items(id) WHERE state IN ('queued', 'in-flight');
      CREATE INDEX backlog_by_id ON backlog_items(id, seq);
      CREATE TABLE backlog_edges (
        item       TEXT NOT NULL,
        blocked_by TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (item, blocked_by)
      );
      CREATE TABLE decisions (
        key          TEXT PRIMARY KEY,
        worker       TEXT NOT NULL,
        project      TEXT,
        question     TEXT NOT NULL,
        options_json TEXT NOT NULL DEFAULT '[]',
        opened_at    INTEGER NOT NULL,
        state        TEXT NOT NULL CHECK (state IN ('open', 'answered', 'declined')),
        answer       TEXT,
        closed_at    INTEGER,
        delivery     TEXT CHECK (delivery IS NULL OR delivery IN ('pending', 'sent')),
        delivered_at INTEGER
      );
      CREATE INDEX decisions_by_worker ON decisions(worker, opened_at);
      CREATE TABLE away (
        id       INTEGER PRIMARY KEY CHECK (id = 1),
        active   INTEGER NOT NULL CHECK (active IN (0, 1)),
        since    INTEGER,
        note     TEXT,
        -- journal entries up to this seq were shown to the person (the account is "read")
        read_seq INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE away_journal (
        seq        INTEGER PRIMARY KEY AUTOINCREMENT,
        at         INTEGER NOT NULL,
        body_json  TEXT NOT NULL,
        -- sha256 of body_json: a changed or truncated row reads as damaged, never as a guess
        checksum   TEXT NOT NULL
      );
      CREATE TABLE notify_marks (
        worker     TEXT PRIMARY KEY,
        condition  TEXT,
        episode    INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE notify_deliveries (
        seq          INTEGER PRIMARY KEY AUTOINCREMENT,
        event_key    TEXT NOT NULL,
        target_id    TEXT NOT NULL,
        payload_json TEXT NOT NULL,
        state        TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
        attempts     INTEGER NOT NULL DEFAULT 0,
        next_at      INTEGER NOT NULL,
        last_error   TEXT,
        created_at   INTEGER NOT NULL,
        delivered_at INTEGER,
        UNIQUE (event_key, target_id)
      );
      CREATE INDEX notify_due ON notify_deliveries(state, next_at);
    `);
  },
};
