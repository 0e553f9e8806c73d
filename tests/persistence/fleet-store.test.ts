import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { openStore, type SqliteFleetStore } from '../../persistence/sqlite-store.ts';
import { RefusedError } from '../../contract/errors.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { project, worker } from './store-fixture.ts';

let dir: ReturnType<typeof makeTempDir>;
let path: string;
let store: SqliteFleetStore;
let clock = 10_000;

beforeEach(() => {
  dir = makeTempDir('store');
  path = join(dir.path, 'kingshand.db');
  store = openStore(path, { now: () => clock });
  store.upsertProject(project());
});
afterEach(() => {
  store.close();
  dir.cleanup();
});

function rawUpdate(sql: string, ...params: unknown[]) {
  const db = new Database(path);
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

describe('projects', () => {
  it('are found by name or by repository path, and yolo stays a boolean', () => {
    store.upsertProject(project('api', { posture: 'direct-PR', yolo: true }));
    expect(store.getProject('api')).toEqual(project('api', { posture: 'direct-PR', yolo: true }));
    expect(store.getProject('/srv/api')?.name).toBe('api');
    expect(store.getProject('/srv/none')).toBeNull();
    expect(store.listProjects().map((p) => p.name)).toEqual(['api', 'app']);
  });

  it('re-registering a name updates it in place', () => {
    store.upsertProject(project('app', { posture: 'no-mistakes' }));
    expect(store.listProjects()).toHaveLength(1);
    expect(store.getProject('app')?.posture).toBe('no-mistakes');
  });

  it('a repository already registered under another name is refused, naming that project', () => {
    expect(() => store.upsertProject(project('other', { repo: '/srv/app' }))).toThrow(/already registered as project 'app'/);
  });
});

describe('workers', () => {
  it('keep their intent fields; the snapshot is empty until the first commit', () => {
    store.insertWorker(worker('T-1'));
    expect(store.getWorker('T-1')).toEqual({ ...worker('T-1'), snapshotJson: null, snapshotVersion: null, updatedAt: 2_000 });
    expect(store.getWorker('T-404')).toBeNull();
  });

  it('a duplicate id is refused', () => {
    store.insertWorker(worker('T-1'));
    const err = (() => {
      try {
        store.insertWorker(worker('T-1'));
      } catch (e) {
        return e as RefusedError;
      }
    })();
    expect(err?.code).toBe('worker-exists');
  });

  it('are listed in creation order and can be deleted', () => {
    store.insertWorker(worker('T-2', { createdAt: 3_000 }));
    store.insertWorker(worker('T-1', { createdAt: 2_500 }));
    expect(store.listWorkers().map((w) => w.id)).toEqual(['T-1', 'T-2']);
    store.deleteWorker('T-1');
    expect(store.listWorkers().map((w) => w.id)).toEqual(['T-2']);
  });
});

describe('commit: snapshots and journal rows in one transaction', () => {
  it('writes the fleet row, worker snapshots and journal entries together', () => {
    store.insertWorker(worker('T-1'));
    clock = 20_000;
    store.commit({
      fleetSnapshotJson: '{"fleet":1}',
      snapshots: { 'T-1': '{"value":"running"}' },
      snapshotVersion: 3,
      journal: [{ actorId: 'worker:T-1', event: { type: 'SCREEN' }, from: 'starting', to: { running: 'working' }, at: 19_999 }],
    });
    expect(store.loadFleetSnapshot()).toEqual({ json: '{"fleet":1}', version: 3 });
    expect(store.getWorker('T-1')).toMatchObject({ snapshotJson: '{"value":"running"}', snapshotVersion: 3, updatedAt: 20_000 });
    expect(store.journal()).toEqual([{ seq: 1, actorId: 'worker:T-1', event: { type: 'SCREEN' }, from: 'starting', to: { running: 'working' }, at: 19_999 }]);
  });

  it('a throwing commit leaves nothing: no fleet row, no snapshot, no journal row', () => {
    store.insertWorker(worker('T-1'));
    expect(() =>
      store.commit({
        fleetSnapshotJson: '{"fleet":2}',
        snapshots: { 'T-1': '{"value":"x"}', 'T-unknown': '{}' },
        snapshotVersion: 1,
        journal: [{ actorId: 'fleet', event: { type: 'A' }, from: null, to: 'idle', at: 1 }],
      }),
    ).toThrow(/no worker T-unknown/);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() =>
      store.commit({
        snapshots: { 'T-1': '{"value":"y"}' },
        snapshotVersion: 1,
        journal: [
          { actorId: 'fleet', event: { type: 'FIRST' }, from: null, to: 'a', at: 1 },
          { actorId: 'fleet', event: circular, from: 'a', to: 'b', at: 2 },
        ],
      }),
    ).toThrow();
    expect(store.loadFleetSnapshot()).toBeNull();
    expect(store.getWorker('T-1')?.snapshotJson).toBeNull();
    expect(store.journal()).toEqual([]);
  });

  it('the journal is continuous: seq rises by one across commits and across a reopen', () => {
    const entry = (n: number, actorId = 'fleet') => ({ actorId, event: { type: `E${n}` }, from: n - 1, to: n, at: n });
    store.commit({ snapshotVersion: 1, journal: [entry(1), entry(2, 'worker:T-1')] });
    store.commit({ snapshotVersion: 1, journal: [entry(3)] });
    store.close();
    store = openStore(path);
    store.commit({ snapshotVersion: 1, journal: [entry(4, 'worker:T-1'), entry(5)] });
    const all = store.journal();
    expect(all.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(all.map((e) => (e.event as { type: string }).type)).toEqual(['E1', 'E2', 'E3', 'E4', 'E5']);
    expect(store.journal({ actorId: 'worker:T-1' }).map((e) => e.seq)).toEqual([2, 4]);
    expect(store.journal({ afterSeq: 2, limit: 2 }).map((e) => e.seq)).toEqual([3, 4]);
  });

  it('an undefined previous state is stored as null', () => {
    store.commit({ snapshotVersion: 1, journal: [{ actorId: 'fleet', event: { type: 'START' }, from: undefined, to: 'idle', at: 1 }] });
    expect(store.journal()[0]).toMatchObject({ from: null, to: 'idle' });
  });
});

describe('damaged rows come back as text, never as a crash', () => {
  it('a snapshot that is not JSON is stored and read back verbatim', () => {
    store.insertWorker(worker('T-1'));
    store.commit({ snapshots: { 'T-1': '{"value": "runn' }, snapshotVersion: 2, journal: [] });
    expect(store.getWorker('T-1')?.snapshotJson).toBe('{"value": "runn');
  });

  it('a BLOB snapshot, a non-numeric version and a garbled journal row are read without throwing', () => {
    store.insertWorker(worker('T-1'));
    store.insertWorker(worker('T-2'));
    store.commit({ fleetSnapshotJson: '{}', snapshotVersion: 1, journal: [{ actorId: 'fleet', event: {}, from: null, to: 'a', at: 1 }] });
    store.close();
    rawUpdate("UPDATE workers SET snapshot_json = ?, snapshot_version = 'abc' WHERE id = 'T-1'", Buffer.from('\u0000{not json\u00ff', 'latin1'));
    rawUpdate("UPDATE fleet SET snapshot_json = X'DEADBEEF', snapshot_version = 'v9'");
    rawUpdate("UPDATE journal SET event_json = '{broken' WHERE seq = 1");
    store = openStore(path);
    const rows = store.listWorkers();
    expect(rows.map((w) => w.id)).toEqual(['T-1', 'T-2']);
    expect(typeof rows[0]!.snapshotJson).toBe('string');
    expect(rows[0]!.snapshotVersion).toBeNull();
    expect(rows[1]!.snapshotJson).toBeNull();
    expect(typeof store.loadFleetSnapshot()?.json).toBe('string');
    expect(store.journal()[0]!.event).toBe('{broken');
  });
});

describe('the agent version recorded at dispatch (schema 6)', () => {
  it('round-trips with the worker row, and a row without one has none', () => {
    store.insertWorker(worker('v1', { agentVersion: '2.1.50' }));
    store.insertWorker(worker('v2'));
    expect(store.getWorker('v1')!.agentVersion).toBe('2.1.50');
    expect('agentVersion' in store.getWorker('v2')!).toBe(false);
  });
});
