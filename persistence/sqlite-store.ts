/**
 * The fleet's storage: one SQLite file per state directory, WAL mode so the daemon's writes
 * never block a reader, every statement prepared once. `commit` writes snapshots and their
 * journal rows in one transaction: after a crash the journal never describes a state the
 * snapshot does not hold, or the other way round.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { ensurePrivateFile } from '../io/fs/private-files.ts';
import { dirname } from 'node:path';
import { RefusedError, UsageError } from '../contract/errors.ts';
import { migrate } from './migrations.ts';
import { damageOf } from './db-health.ts';
import { asInt, asText, parseStoredJson, projectFromRow, toJsonColumn, workerFromRow } from './row-codec.ts';
import type { FleetStore, JournalEntry, ProjectRecord, StoredJournalEntry, WorkerIntent, WorkerRow } from './types.ts';

export interface OpenStoreOptions {
  /** Clock for `updated_at` (tests pin it). */
  now?: () => number;
  /** How long a write waits for another connection's lock before failing (ms). */
  busyTimeoutMs?: number;
}

export interface SqliteFleetStore extends FleetStore {
  readonly path: string;
}

function sqliteCode(err: unknown): string {
  return typeof (err as { code?: unknown })?.code === 'string' ? (err as { code: string }).code : '';
}

function openDatabase(dbPath: string, busyTimeoutMs: number): Database.Database {
  try {
    mkdirSync(dirname(dbPath), { recursive: true, mode: 0o700 });
    // SQLite gives its -wal and -shm files the mode of the database file.
    if (dbPath !== ':memory:') ensurePrivateFile(dbPath);
    const db = new Database(dbPath, { timeout: busyTimeoutMs });
    try {
      // WAL: readers never wait for the writer. NORMAL sync is atomic and survives a killed
      // daemon (only an OS crash could lose the newest commits), without an fsync per transition.
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (mode !== 'wal') throw new Error(`journal_mode is ${String(mode)}, WAL could not be enabled`);
      db.pragma('synchronous = NORMAL');
      // A bounded log: checkpoint every 1 MB of frames (not 4 MB) and truncate the file back to
      // 1 MB after each, so the state directory's footprint stays small and a nearly full disk
      // is not filled by the log's old frames (issue 25: 2.6 MB of WAL on a 3 MB disk).
      db.pragma('wal_autocheckpoint = 256');
      db.pragma('journal_size_limit = 1048576');
      db.pragma(`busy_timeout = ${busyTimeoutMs}`);
      db.pragma('foreign_keys = ON');
      return db;
    } catch (err) {
      db.close();
      throw err;
    }
  } catch (err) {
    const code = sqliteCode(err);
    const why = code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' ? 'it is not a SQLite database (damaged or another file)' : (err as Error).message;
    throw new RefusedError('store-unopenable', `cannot open the state database ${dbPath}: ${why}. Move it aside or use another state directory (--home).`, {
      path: dbPath,
      sqliteCode: code,
    });
  }
}

export function openStore(dbPath: string, options: OpenStoreOptions = {}): SqliteFleetStore {
  const now = options.now ?? Date.now;
  const db = openDatabase(dbPath, options.busyTimeoutMs ?? 5000);
  let schemaVersion: number;
  try {
    schemaVersion = migrate(db, dbPath);
    const damage = damageOf(db);
    if (damage) throw new Error(`the database is damaged (${damage})`);
  } catch (err) {
    db.close();
    if (err instanceof RefusedError) throw err;
    throw new RefusedError('store-unopenable', `cannot read the state database ${dbPath}: ${(err as Error).message}. Move it aside or use another state directory (--home).`, {
      path: dbPath,
      sqliteCode: sqliteCode(err),
    });
  }

  const s = {
    upsertProject: db.prepare(
      `INSERT INTO projects (name, repo, posture, yolo, registered_at, permissions, default_agent, budget_usd_per_day, resume_lost) VALUES (@name, @repo, @posture, @yolo, @registeredAt, @permissions, @defaultAgent, @budget, @resumeLost)
       ON CONFLICT(name) DO UPDATE SET repo = excluded.repo, posture = excluded.posture, yolo = excluded.yolo, registered_at = excluded.registered_at, permissions = excluded.permissions, default_agent = excluded.default_agent,
         budget_usd_per_day = excluded.budget_usd_per_day, resume_lost = excluded.resume_lost`,
    ),
    getProject: db.prepare('SELECT * FROM projects WHERE name = @key OR repo = @key ORDER BY (name = @key) DESC LIMIT 1'),
    listProjects: db.prepare('SELECT * FROM projects ORDER BY name'),
    insertWorker: db.prepare(
      `INSERT INTO workers (id, project, repo, worktree, branch, base, backend, agent, agent_version, brief_path, report_path, created_at, updated_at, host, far_dir, resume_session)
       VALUES (@id, @project, @repo, @worktree, @branch, @base, @backend, @agent, @agentVersion, @briefPath, @reportPath, @createdAt, @createdAt, @host, @farDir, @resumeSession)`,
    ),
    getWorker: db.prepare('SELECT * FROM workers WHERE id = ?'),
    listWorkers: db.prepare('SELECT * FROM workers ORDER BY created_at, id'),
    workerRepos: db.prepare('SELECT id, repo FROM workers'),
    deleteWorker: db.prepare('DELETE FROM workers WHERE id = ?'),
    setPaneServer: db.prepare('UPDATE workers SET pane_server = ? WHERE id = ?'),
    writeWorkerSnapshot: db.prepare('UPDATE workers SET snapshot_json = ?, snapshot_version = ?, updated_at = ? WHERE id = ?'),
    writeFleet: db.prepare(
      `INSERT INTO fleet (id, snapshot_json, snapshot_version, updated_at) VALUES (1, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET snapshot_json = excluded.snapshot_json, snapshot_version = excluded.snapshot_version, updated_at = excluded.updated_at`,
    ),
    loadFleet: db.prepare('SELECT snapshot_json, snapshot_version FROM fleet WHERE id = 1'),
    appendJournal: db.prepare('INSERT INTO journal (actor_id, event_json, from_json, to_json, at) VALUES (?, ?, ?, ?, ?)'),
    // LIMIT -1 is SQLite for "no limit", so one statement per filter shape serves every call.
    journalAll: db.prepare('SELECT * FROM journal WHERE seq > ? ORDER BY seq LIMIT ?'),
    journalByActor: db.prepare('SELECT * FROM journal WHERE actor_id = ? AND seq > ? ORDER BY seq LIMIT ?'),
  };

  const commitTx = db.transaction((args: Parameters<FleetStore['commit']>[0]) => {
    const at = now();
    if (args.fleetSnapshotJson !== undefined) s.writeFleet.run(args.fleetSnapshotJson, args.snapshotVersion, at);
    for (const [id, json] of Object.entries(args.snapshots ?? {})) {
      if (s.writeWorkerSnapshot.run(json, args.snapshotVersion, at, id).changes === 0) {
        // Throwing rolls the whole commit back: a journal row for a worker we have no row for would be a lie.
        throw new RefusedError('worker-not-found', `no worker ${id} in the store; its snapshot and this commit's journal rows were not written.`, { id });
      }
    }
    for (const e of args.journal) appendOne(e);
  });

  function appendOne(e: JournalEntry): void {
    if (typeof e.actorId !== 'string' || e.actorId === '' || !Number.isFinite(e.at)) {
      throw new UsageError('journal-entry-invalid', `journal entry needs an actorId and a finite 'at' (got ${JSON.stringify(e.actorId)}, ${String(e.at)}).`);
    }
    s.appendJournal.run(e.actorId, toJsonColumn(e.event) ?? 'null', toJsonColumn(e.from), toJsonColumn(e.to), e.at);
  }

  function journalFromRow(r: Record<string, unknown>): StoredJournalEntry {
    return {
      seq: asInt(r.seq) ?? 0,
      actorId: asText(r.actor_id) ?? '',
      event: parseStoredJson(r.event_json),
      from: parseStoredJson(r.from_json),
      to: parseStoredJson(r.to_json),
      at: asInt(r.at) ?? 0,
    };
  }

  return {
    path: dbPath,
    schemaVersion,
    upsertProject(p: ProjectRecord) {
      try {
        s.upsertProject.run({
          name: p.name, repo: p.repo, posture: p.posture, yolo: p.yolo ? 1 : 0, registeredAt: p.registeredAt, permissions: p.permissions ?? 'off', defaultAgent: p.defaultAgent ?? null,
          budget: p.budgetUsdPerDay ?? null, resumeLost: p.resumeLost ?? null,
        });
      } catch (err) {
        if (sqliteCode(err) === 'SQLITE_CONSTRAINT_UNIQUE') {
          const owner = projectFromRow(s.getProject.get({ key: p.repo }) as Record<string, unknown>);
          throw new RefusedError('project-repo-taken', `${p.repo} is already registered as project '${owner.name}'; use that name, or choose a different repository.`, {
            repo: p.repo,
            project: owner.name,
          });
        }
        if (sqliteCode(err) === 'SQLITE_CONSTRAINT_CHECK') {
          throw new UsageError('project-invalid', `project '${p.name}' has an unknown posture ${JSON.stringify(p.posture)}; use local-only, direct-PR, no-mistakes or no-mistakes-prod-only.`);
        }
        throw err;
      }
    },
    getProject(nameOrRepo: string) {
      const r = s.getProject.get({ key: nameOrRepo }) as Record<string, unknown> | undefined;
      return r ? projectFromRow(r) : null;
    },
    listProjects() {
      return (s.listProjects.all() as Record<string, unknown>[]).map(projectFromRow);
    },
    insertWorker(w: WorkerIntent) {
      try {
        const { id, project, repo, worktree, branch, base, backend, agent, briefPath, reportPath, createdAt } = w;
        const agentVersion = w.agentVersion ?? null;
        const host = w.host && w.host !== 'local' ? w.host : null;
        s.insertWorker.run({ id, project, repo, worktree, branch, base, backend, agent, agentVersion, briefPath, reportPath, createdAt, host, farDir: w.farDir ?? null, resumeSession: w.resumeSession ?? null });
      } catch (err) {
        const code = sqliteCode(err);
        if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
          throw new RefusedError('worker-exists', `a worker named ${w.id} already exists; choose another id or remove the old worker first.`, { id: w.id });
        }
        if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
          throw new RefusedError('project-not-registered', `project '${w.project}' is not registered; register its repository first (hand annex <repo>).`, { project: w.project });
        }
        if (code === 'SQLITE_CONSTRAINT_CHECK') {
          throw new UsageError('worker-invalid', `worker ${w.id} has an unknown backend ${JSON.stringify(w.backend)}; use tmux, pty or herdr.`, { id: w.id });
        }
        throw err;
      }
    },
    getWorker(id: string): WorkerRow | null {
      const r = s.getWorker.get(id) as Record<string, unknown> | undefined;
      return r ? workerFromRow(r) : null;
    },
    listWorkers() {
      return (s.listWorkers.all() as Record<string, unknown>[]).map(workerFromRow);
    },
    workerRepos() {
      return new Map((s.workerRepos.all() as { id: string; repo: string }[]).map((r) => [r.id, r.repo]));
    },
    deleteWorker(id: string) {
      s.deleteWorker.run(id);
    },
    setPaneServer(id: string, server: string) {
      s.setPaneServer.run(server, id);
    },
    commit(args) {
      commitTx(args);
    },
    reclaimSpace() {
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
      } catch {
        // Still no room (or a reader holds the log): the next retry tries again.
      }
    },
    loadFleetSnapshot() {
      const r = s.loadFleet.get() as Record<string, unknown> | undefined;
      if (!r) return null;
      return { json: asText(r.snapshot_json) ?? '', version: asInt(r.snapshot_version) ?? 0 };
    },
    journal(opts = {}) {
      const after = opts.afterSeq ?? 0;
      const limit = opts.limit ?? -1;
      const rows = opts.actorId === undefined ? s.journalAll.all(after, limit) : s.journalByActor.all(opts.actorId, after, limit);
      return (rows as Record<string, unknown>[]).map(journalFromRow);
    },
    close() {
      if (db.open) db.close();
    },
  };
}
