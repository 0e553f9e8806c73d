/**
 * Rule: a fleet database names the state directory it belongs to, and the directory names its
 * database from its first start (issue 43). The check before opening refuses another
 * directory's database; a database brought into a directory that never held anything takes
 * that directory; a directory that lost its home.id still opens the database it opened before.
 */
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RefusedError } from '../../contract/errors.ts';
import { HOME_ID_FILE, readHomeId, stampStateIdentity } from '../../persistence/home-identity.ts';
import { openStore } from '../../persistence/sqlite-store.ts';
import { checkStateBeforeOpen, readManifest, writeManifest } from '../../persistence/state-integrity.ts';
import { makeTempDir } from '../helpers/temp.ts';

const made: Array<() => void> = [];
afterEach(() => {
  for (const c of made.splice(0)) c();
});

/** A state directory whose daemon started once: checked, opened, stamped, its manifest written, one project. */
function startedHome(label: string): { home: string; db: string } {
  const t = makeTempDir(label);
  made.push(t.cleanup);
  const home = t.path;
  const db = join(home, 'fleet.db');
  checkStateBeforeOpen({ home, db });
  const store = openStore(db);
  store.upsertProject({ name: 'shop', repo: `/srv/${label}`, posture: 'local-only', yolo: true, registeredAt: 1 });
  const { dbId } = stampStateIdentity(home, db);
  writeManifest(home, { dbId, schemaVersion: store.schemaVersion, workers: 0, projects: 1 });
  store.close();
  return { home, db };
}

const refusal = (f: () => unknown): RefusedError => {
  try {
    f();
  } catch (err) {
    if (err instanceof RefusedError) return err;
    throw err;
  }
  throw new Error('not refused');
};

describe('a database names its state directory', () => {
  it('the first start names the database in the manifest (it was null before: nothing to read yet)', () => {
    const a = startedHome('first-start');
    expect(readManifest(a.home)?.dbId).toMatch(/^[0-9a-f]{32}$/);
    expect(readHomeId(a.home)).toMatch(/^[0-9a-f]{32}$/);
  });

  it("another directory's database is refused, naming where it came from", () => {
    const a = startedHome('home-a');
    const b = startedHome('home-b');
    copyFileSync(b.db, a.db);
    const err = refusal(() => checkStateBeforeOpen(a));
    expect(err.code).toBe('state-db-foreign');
    expect(err.message).toContain(b.home);
    expect(err.message).toContain('restore-db');
  });

  it('a database brought into a directory that never held anything takes that directory', () => {
    const b = startedHome('home-b');
    const t = makeTempDir('empty-home');
    made.push(t.cleanup);
    const db = join(t.path, 'fleet.db');
    copyFileSync(b.db, db);
    expect(checkStateBeforeOpen({ home: t.path, db }).state).toBe('ok');
    openStore(db).close();
    stampStateIdentity(t.path, db);
    expect(readHomeId(t.path)).toBe(readHomeId(b.home));
  });

  it('a directory that lost its home.id opens the database it opened before, and gets the id back', () => {
    const a = startedHome('lost-id');
    const id = readFileSync(join(a.home, HOME_ID_FILE), 'utf8').trim();
    rmSync(join(a.home, HOME_ID_FILE));
    expect(checkStateBeforeOpen(a).state).toBe('ok');
    stampStateIdentity(a.home, a.db);
    expect(readHomeId(a.home)).toBe(id);
  });
});
