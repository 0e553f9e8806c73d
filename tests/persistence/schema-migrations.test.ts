import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../persistence/sqlite-store.ts';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, migrate } from '../../persistence/migrations.ts';
import { RefusedError } from '../../contract/errors.ts';
import { useTempDirs } from '../helpers/use-temp-dir.ts';
import { project, worker } from './store-fixture.ts';

// Registered before the cleanups below, so its teardown runs after theirs (vitest runs after-hooks as a stack).
const tempDir = useTempDirs();
const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});
const dbFile = (): string => join(tempDir('store'), 'kingshand.db');
function raw(path: string): Database.Database {
  const db = new Database(path);
  cleanups.push(() => db.open && db.close());
  return db;
}
const versions = (path: string) => {
  const db = raw(path);
  const rows = (db.prepare('SELECT version FROM schema_version ORDER BY version').all() as { version: number }[]).map((r) => r.version);
  db.close();
  return rows;
};

describe('schema migrations', () => {
  it('a new database (v0) is migrated to the latest version, one recorded row per migration', () => {
    const path = dbFile();
    const store = openStore(path);
    expect(store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    store.close();
    expect(versions(path)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('an empty existing file counts as v0 and is migrated', () => {
    const path = dbFile();
    writeFileSync(path, '');
    const store = openStore(path);
    expect(store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    store.close();
  });

  it('an older (v1) database is migrated forward and keeps its rows', () => {
    const path = dbFile();
    const old = raw(path);
    expect(migrate(old, path, MIGRATIONS.slice(0, 1))).toBe(1);
    old.prepare("INSERT INTO projects VALUES ('app', '/srv/app', 'local-only', 0, 1)").run();
    old.prepare("INSERT INTO journal (actor_id, event_json, at) VALUES ('fleet', '{\"type\":\"OLD\"}', 5)").run();
    old.close();

    const store = openStore(path);
    expect(store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    expect(store.getProject('app')?.repo).toBe('/srv/app');
    expect(store.journal()).toMatchObject([{ seq: 1, actorId: 'fleet', event: { type: 'OLD' } }]);
    store.close();
    const db = raw(path);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'journal_by_actor'").get()).toBeTruthy();
  });

  it('a v8 database gains projects.default_agent (NULL: claude) and keeps its projects', () => {
    const path = dbFile();
    const old = raw(path);
    const v8 = MIGRATIONS.filter((m) => m.version <= 8);
    expect(migrate(old, path, v8)).toBe(8);
    old.prepare("INSERT INTO projects (name, repo, posture, yolo, registered_at, permissions) VALUES ('app', '/srv/app', 'local-only', 1, 1, 'ask')").run();
    old.close();

    const store = openStore(path);
    expect(store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    expect(store.getProject('app')).toMatchObject({ repo: '/srv/app', yolo: true, permissions: 'ask', defaultAgent: null });
    store.upsertProject({ ...store.getProject('app')!, defaultAgent: 'codex' });
    expect(store.getProject('app')?.defaultAgent).toBe('codex');
    store.close();
  });

  it('reopening a current database applies nothing twice', () => {
    const path = dbFile();
    openStore(path).close();
    openStore(path).close();
    expect(versions(path)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('a database from a newer kingshand is refused with a clear error and left as it was', () => {
    const path = dbFile();
    openStore(path).close();
    const db = raw(path);
    db.prepare("INSERT INTO schema_version VALUES (99, 'from the future', 0)").run();
    db.close();
    const err = (() => {
      try {
        openStore(path);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(RefusedError);
    expect((err as RefusedError).code).toBe('store-schema-too-new');
    expect((err as Error).message).toMatch(new RegExp(`version 99.*up to ${LATEST_SCHEMA_VERSION}.*Upgrade kingshand`));
    expect(versions(path)).toEqual([...MIGRATIONS.map((m) => m.version), 99]);
  });

  it('a database holding tables kingshand did not write is refused, not migrated', () => {
    const path = dbFile();
    const db = raw(path);
    db.exec('CREATE TABLE notes (body TEXT)');
    db.close();
    expect(() => openStore(path)).toThrow(/tables kingshand did not write \(notes\)/);
  });

  it('a file that is not a SQLite database is refused naming the file', () => {
    const path = dbFile();
    writeFileSync(path, 'this is not a database, just text that happens to be long enough to have a header\n'.repeat(20));
    expect(() => openStore(path)).toThrow(RefusedError);
    expect(() => openStore(path)).toThrow(path);
  });

  it('the store runs in WAL mode with foreign keys enforced', () => {
    const path = dbFile();
    const store = openStore(path);
    cleanups.push(() => store.close());
    const db = raw(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    store.upsertProject(project());
    expect(() => store.insertWorker(worker('T-1', { project: 'nope' }))).toThrow(/project 'nope' is not registered/);
  });
});
