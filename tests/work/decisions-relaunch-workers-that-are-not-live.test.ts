/**
 * An answer for a worker whose session is gone comes back by a relaunch (real daemon, tmux, mock
 * agent): the progress note carries the question and the answer, the decision is delivered, and
 * the new session finishes on that answer. A parked worker is never discarded or relaunched while
 * its decision is open (the refusal names the decision). A relaunch that is refused (here: a
 * rejected worker, with real SQLite stores and a fleet double whose view says so) leaves the answer
 * recorded and pending, with the reason.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { handOk, parkWorkers, useCliWorld } from '../helpers/cli-world.ts';
import { makeTempDir, waitFor } from '../helpers/temp.ts';
import { openStore } from '../../persistence/sqlite-store.ts';
import { openWorkStores } from '../../persistence/work/index.ts';
import { deliverByRelaunch } from '../../daemon/work/decision-delivery.ts';
import type { FleetHostApi, WorkerViewLike } from '../../actors/fleet-api.ts';
import type { FleetStore, WorkerIntent } from '../../persistence/types.ts';

const makeWorld = useCliWorld();

describe('decisions of workers that are not live are delivered by a relaunch', () => {
  it('discard and relaunch refuse a parked worker naming its decision; decide relaunches it with the question and the answer', async () => {
    const w = await makeWorld('work-relaunch');
    const ok = handOk(w);
    const { open: [open], key: keyOf } = await parkWorkers(ok, w, ['p1']);
    const key = keyOf('p1');

    const relaunchParked = await w.hand(['relaunch', 'p1', '--json']);
    expect(relaunchParked.code).toBe(1);
    expect(relaunchParked.json.error.code).toBe('worker-parked');
    expect(relaunchParked.json.error.message).toContain(`hand decide ${key}`);

    expect((await ok(['stop', 'p1', '--force'])).condition).toBe('gone');
    const discardParked = await w.hand(['discard', 'p1', '--json']);
    expect(discardParked.code).toBe(1);
    expect(discardParked.json.error.code).toBe('worker-parked');
    expect(discardParked.json.error.message).toContain(key);
    const all = (await w.hand(['discard', '--all-finished', '--json'])).json;
    expect(all.discarded).toEqual([]);
    expect(all.refused).toEqual([expect.objectContaining({ id: 'p1', code: 'worker-parked' })]);

    const answer = await ok(['decide', key, 'Postgres']);
    expect(answer).toMatchObject({ state: 'answered', delivery: 'relaunched', worker: 'p1' });
    const note = readFileSync(answer.relaunch.progressNotePath, 'utf8');
    expect(note).toContain(open.question);
    expect(note).toContain('→ Postgres');
    expect(note).toContain(key);
    expect((await ok(['decisions', '--all']))[0]).toMatchObject({ key, state: 'answered', delivery: 'sent' });
    // The new session takes the answer from the relaunch prompt and finishes on it.
    const report = await waitFor(() => {
      try {
        const text = readFileSync(answer.relaunch.progressNotePath.replace(/progress-note\.md$/, 'out/report.md'), 'utf8');
        return text.includes('as decided') ? text : undefined;
      } catch {
        return undefined;
      }
    }, { what: "p1's final report after the relaunch", timeoutMs: 45_000 });
    expect(report).toContain(`using Postgres as decided (${key})`);
    expect(await ok(['decisions'])).toEqual([]);
  }, 300_000);

  it('a refused relaunch keeps the answer recorded and pending, with the refusal', async () => {
    const tmp = makeTempDir('decide-refused');
    const dir = tmp.path;
    const db = join(dir, 'fleet.db');
    const fleetStore = openStore(db);
    const stores = openWorkStores(db);
    try {
      const intent = { id: 'r1', project: 'shop', repo: dir, worktree: dir, branch: 'r1', base: 'main', backend: 'tmux', agent: 'mock', briefPath: join(dir, 'brief.md'), reportPath: join(dir, 'report.md'), createdAt: 0 } as WorkerIntent;
      const view = { id: 'r1', stage: 'rejected', marks: ['rejected'], condition: 'gone', live: false, gate: null } as unknown as WorkerViewLike;
      const fleet = { view: (id: string) => (id === 'r1' ? view : null) } as unknown as FleetHostApi;
      const store = { getWorker: (id: string) => (id === 'r1' ? intent : null) } as unknown as FleetStore;
      const { decision } = stores.decisions.ensure({ worker: 'r1', project: 'shop', question: 'Which database?', options: [] });
      const answered = stores.decisions.answer(decision.key, 'SQLite');
      const r = await deliverByRelaunch({ stores, relaunch: { store, fleet }, log: () => {} }, answered);
      expect(r).toMatchObject({ delivered: false, code: 'worker-not-relaunchable' });
      expect(!r.delivered && r.why).toContain('the person already decided about it');
      expect(stores.decisions.get(decision.key)).toMatchObject({ state: 'answered', answer: 'SQLite', delivery: 'pending' });
    } finally {
      stores.close();
      fleetStore.close();
      tmp.cleanup();
    }
  });
});
