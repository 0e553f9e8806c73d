/**
 * Schema migrations, applied in order. Each one runs in its own transaction together with the
 * `schema_version` row that records it, so a crash mid-migration leaves the previous version.
 * Append only: never edit a migration that has shipped — add the next one.
 */
import type Database from 'better-sqlite3';
import { RefusedError } from '../contract/errors.ts';
import { WORK_MIGRATION } from './work/migration.ts';
import { ANNOTATIONS_MIGRATION } from './annotation-store.ts';

export interface Migration {
  version: number;
  description: string;
  up(db: Database.Database): void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'projects, workers, fleet snapshot, event journal',
    up(db) {
      db.exec(`
        CREATE TABLE projects (
          name          TEXT PRIMARY KEY,
          repo          TEXT NOT NULL UNIQUE,
          posture       TEXT NOT NULL CHECK (posture IN ('local-only', 'direct-PR', 'no-mistakes', 'no-mistakes-prod-only')),
          yolo          INTEGER NOT NULL CHECK (yolo IN (0, 1)),
          registered_at INTEGER NOT NULL
        );
        CREATE TABLE workers (
          id               TEXT PRIMARY KEY,
          project          TEXT NOT NULL REFERENCES projects(name) ON UPDATE CASCADE,
          repo             TEXT NOT NULL,
          worktree         TEXT NOT NULL,
          branch           TEXT NOT NULL,
          base             TEXT NOT NULL,
          backend          TEXT NOT NULL CHECK (backend IN ('tmux', 'pty', 'herdr')),
          agent            TEXT NOT NULL,
          brief_path       TEXT NOT NULL,
          report_path      TEXT NOT NULL,
          created_at       INTEGER NOT NULL,
          snapshot_json    TEXT,
          snapshot_version INTEGER,
          updated_at       INTEGER NOT NULL
        );
        CREATE TABLE fleet (
          id               INTEGER PRIMARY KEY CHECK (id = 1),
          snapshot_json    TEXT NOT NULL,
          snapshot_version INTEGER NOT NULL,
          updated_at       INTEGER NOT NULL
        );
        CREATE TABLE journal (
          seq        INTEGER PRIMARY KEY AUTOINCREMENT,
          actor_id   TEXT NOT NULL,
          event_json TEXT NOT NULL,
          from_json  TEXT,
          to_json    TEXT,
          at         INTEGER NOT NULL
        );
      `);
    },
  },
  {
    version: 2,
    description: 'journal index for per-actor reads (hand status/wait read one worker at a time)',
    up(db) {
      db.exec('CREATE INDEX journal_by_actor ON journal(actor_id, seq);');
    },
  },
  {
    version: 3,
    description: "projects.permissions: the workers' permission posture (off | edits | ask), default off",
    up(db) {
      db.exec(`ALTER TABLE projects ADD COLUMN permissions TEXT NOT NULL DEFAULT 'off' CHECK (permissions IN ('off', 'edits', 'ask'));`);
    },
  },
  WORK_MIGRATION,
  {
    version: 5,
    description: "the database's own id, named by the state directory's manifest (persistence/state-integrity.ts)",
    up(db) {
      db.exec('CREATE TABLE store_identity (id INTEGER PRIMARY KEY CHECK (id = 1), db_id TEXT NOT NULL, created_at INTEGER NOT NULL);');
      db.prepare('INSERT INTO store_identity (id, db_id, created_at) VALUES (1, lower(hex(randomblob(16))), ?)').run(Date.now());
    },
  },
  {
    version: 6,
    description: "the agent's version at dispatch (claude --version), so its screen is read with the nearest profile",
    up(db) {
      db.exec('ALTER TABLE workers ADD COLUMN agent_version TEXT;');
    },
  },
  {
    version: 7,
    description: 'hosts: machines the fleet reaches over ssh, with the facts their last check found (issue 28)',
    up(db) {
      db.exec(`CREATE TABLE hosts (
        name       TEXT PRIMARY KEY,
        user       TEXT NOT NULL,
        address    TEXT NOT NULL,
        port       INTEGER NOT NULL CHECK (port BETWEEN 1 AND 65535),
        identity   TEXT,
        state_dir  TEXT,
        facts_json TEXT NOT NULL DEFAULT '[]',
        checked_at INTEGER,
        created_at INTEGER NOT NULL
      );`);
    },
  },
  {
    version: 8,
    description: "workers on other hosts: the worker's host and its brief directory there, the tmux server its pane was made on; each project's path per host and its default host (issue 28)",
    up(db) {
      db.exec(`ALTER TABLE workers ADD COLUMN host TEXT;
        ALTER TABLE workers ADD COLUMN far_dir TEXT;
        ALTER TABLE workers ADD COLUMN pane_server TEXT;
        CREATE TABLE project_hosts (
          project    TEXT NOT NULL REFERENCES projects(name) ON UPDATE CASCADE ON DELETE CASCADE,
          host       TEXT NOT NULL,
          path       TEXT NOT NULL,
          is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
          PRIMARY KEY (project, host)
        );`);
    },
  },
  {
    version: 9,
    description: "projects.default_agent: the agent a dispatch without --agent runs (NULL = claude), so a project can be Codex's or Gemini's (issue 27)",
    up(db) {
      // No CHECK on the name: the agents grow with the profiles, and the daemon's edge refuses an unknown one.
      db.exec('ALTER TABLE projects ADD COLUMN default_agent TEXT;');
    },
  },
  {
    version: 10,
    description: 'the state directory a database belongs to (home.id), and where it was last opened: a database from another directory is refused, never adopted (persistence/home-identity.ts, issue 43)',
    up(db) {
      db.exec(`ALTER TABLE store_identity ADD COLUMN home_id TEXT;
        ALTER TABLE store_identity ADD COLUMN home_path TEXT;`);
    },
  },
  {
    version: 11,
    description: "decisions.recovery: what a delivery after a daemon's restart found of the answer in the pane (entered, found-sent, rolled-back), so the record says how it ended (actors/decision-resume.ts, issue 43)",
    up(db) {
      db.exec("ALTER TABLE decisions ADD COLUMN recovery TEXT CHECK (recovery IN ('entered', 'found-sent', 'rolled-back'));");
    },
  },
  ANNOTATIONS_MIGRATION,
  {
    version: 13,
    description: "a worker's agent session (its id and file, proved to be its) and what each session spent, per model and day; a project's daily budget and whether its lost workers are resumed by themselves (issue 41)",
    up(db) {
      db.exec(`
        -- The session a worker's launch continues (hand relaunch --resume), so a restore during its spawn resumes it too.
        ALTER TABLE workers ADD COLUMN resume_session TEXT;
        ALTER TABLE projects ADD COLUMN budget_usd_per_day REAL CHECK (budget_usd_per_day IS NULL OR budget_usd_per_day > 0);
        ALTER TABLE projects ADD COLUMN resume_lost TEXT CHECK (resume_lost IS NULL OR resume_lost IN ('ask', 'auto'));
        -- The agent session of a worker's current launch, proved by its file (io/agent/sessions/prove.ts).
        CREATE TABLE agent_sessions (
          worker      TEXT PRIMARY KEY,
          agent       TEXT NOT NULL,
          session_id  TEXT NOT NULL,
          file        TEXT NOT NULL,
          -- the launch it belongs to (the intent's created_at): a later launch's session replaces it
          launched_at INTEGER NOT NULL,
          recorded_at INTEGER NOT NULL
        );
        -- What each session file spent per model and day, as last read (absolute numbers: a read
        -- again writes the same row). closed = 1: the worker's id was given to new work or
        -- discarded; the row still counts for its project's day.
        CREATE TABLE usage_ledger (
          session_file  TEXT NOT NULL,
          model         TEXT NOT NULL,
          day           TEXT NOT NULL,
          worker        TEXT NOT NULL,
          project       TEXT NOT NULL,
          agent         TEXT NOT NULL,
          input         INTEGER NOT NULL,
          output        INTEGER NOT NULL,
          cache_read    INTEGER NOT NULL,
          cache_write   INTEGER NOT NULL,
          cache_write_1h INTEGER NOT NULL,
          messages      INTEGER NOT NULL,
          closed        INTEGER NOT NULL DEFAULT 0 CHECK (closed IN (0, 1)),
          updated_at    INTEGER NOT NULL,
          PRIMARY KEY (session_file, model, day)
        );
        CREATE INDEX usage_by_worker ON usage_ledger(worker, closed);
        CREATE INDEX usage_by_project_day ON usage_ledger(project, day);
      `);
    },
  },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Version recorded in the database; 0 for a database no kingshand has written yet. */
export function currentSchemaVersion(db: Database.Database): number {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").get();
  if (!table) return 0;
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_version').get() as { v: number | null };
  return row.v ?? 0;
}

/**
 * Brings the database up to the newest migration in `migrations` and returns that version.
 * A database written by a newer kingshand is refused: its tables may mean things this code
 * does not know, and writing to it could corrupt the newer daemon's state.
 */
export function migrate(db: Database.Database, where: string, migrations: readonly Migration[] = MIGRATIONS): number {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_version (
    version     INTEGER PRIMARY KEY,
    description TEXT NOT NULL,
    applied_at  INTEGER NOT NULL
  )`);
  const known = migrations.length ? migrations[migrations.length - 1]!.version : 0;
  const found = currentSchemaVersion(db);
  if (found > known) {
    throw new RefusedError(
      'store-schema-too-new',
      `the state database ${where} has schema version ${found}, but this kingshand knows versions up to ${known}: it was written by a newer kingshand. ` +
        `Upgrade kingshand, or use another state directory (--home).`,
      { path: where, found, known },
    );
  }
  if (found === 0) {
    const foreign = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('schema_version', 'sqlite_sequence')").all() as { name: string }[];
    if (foreign.length > 0) {
      throw new RefusedError(
        'store-not-kingshand',
        `${where} holds tables kingshand did not write (${foreign.map((t) => t.name).join(', ')}); refusing to migrate it. Point --home at a kingshand state directory.`,
        { path: where },
      );
    }
  }
  const record = db.prepare('INSERT INTO schema_version (version, description, applied_at) VALUES (?, ?, ?)');
  for (const m of migrations) {
    if (m.version <= found) continue;
    // IMMEDIATE takes the write lock before re-reading the version, so two processes opening
    // the same old database cannot both apply the same migration.
    db.transaction(() => {
      if (currentSchemaVersion(db) >= m.version) return;
      m.up(db);
      record.run(m.version, m.description, Date.now());
    }).immediate();
  }
  return Math.max(found, known);
}
