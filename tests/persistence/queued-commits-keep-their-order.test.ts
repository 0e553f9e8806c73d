/**
 * Rule (issue 25, items 1 and 2): a commit the database refuses for a while (locked, disk full)
 * is kept, and every later one waits behind it; the timer retries in order, so the journal is
 * written as it happened, each commit once. A failure that is not the database's state is
 * thrown as before.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { CommitQueue, COMMIT_RETRY_MS, troubleOf, type CommitArgs, type StoreHealth } from '../../persistence/commit-queue.ts';

const sqliteError = (code: string, message: string) => Object.assign(new Error(message), { code });
const args = (n: number): CommitArgs => ({ snapshotVersion: 1, journal: [{ actorId: 'w', event: { n }, from: null, to: 's', at: n }] });

function harness(failFirst: number, error = sqliteError('SQLITE_BUSY', 'database is locked')) {
  const written: number[] = [];
  let refusals = failFirst;
  const store = {
    commit(a: CommitArgs) {
      if (refusals > 0) {
        refusals--;
        throw error;
      }
      written.push((a.journal[0]!.event as { n: number }).n);
    },
  };
  const clock = new SimulatedClock();
  const health: Array<StoreHealth | null> = [];
  const q = new CommitQueue(store, { timer: clock, onHealth: (h) => health.push(h) });
  return { q, clock, written, health, unlock: () => { refusals = 0; } };
}

describe('queued commits keep their order', () => {
  it('a refused commit and every later one are written in order, once, when the database takes writes again', () => {
    const h = harness(Infinity);
    for (let n = 1; n <= 5; n++) h.q.commit(args(n));
    expect(h.written).toEqual([]);
    expect(h.q.state).toMatchObject({ trouble: 'locked', pending: 5 });
    h.clock.increment(COMMIT_RETRY_MS);
    expect(h.written, 'still locked: nothing written, nothing dropped').toEqual([]);
    h.unlock();
    h.clock.increment(COMMIT_RETRY_MS);
    expect(h.written).toEqual([1, 2, 3, 4, 5]);
    expect(h.q.state).toBeNull();
    expect(h.health.map((x) => x?.trouble ?? null)).toEqual(['locked', null]);
    h.q.commit(args(6));
    expect(h.written).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('a full disk is its own trouble, and a commit made while it lasts waits behind the older ones', () => {
    const h = harness(2, sqliteError('SQLITE_FULL', 'database or disk is full'));
    h.q.commit(args(1));
    h.q.commit(args(2));
    expect(h.q.state).toMatchObject({ trouble: 'full', pending: 2 });
    h.clock.increment(COMMIT_RETRY_MS); // the retry is refused once more, then the disk has space
    h.clock.increment(COMMIT_RETRY_MS);
    expect(h.written).toEqual([1, 2]);
  });

  it('a failure that is not the database refusing writes is thrown, never queued', () => {
    const h = harness(1, sqliteError('SQLITE_CONSTRAINT', 'constraint failed'));
    expect(() => h.q.commit(args(1))).toThrow(/constraint failed/);
    expect(h.q.pending).toBe(0);
    expect(troubleOf(sqliteError('SQLITE_BUSY_SNAPSHOT', 'x'))).toBe('locked');
    expect(troubleOf(Object.assign(new Error('no space'), { code: 'ENOSPC' }))).toBe('full');
    expect(troubleOf(new Error('something else'))).toBeNull();
  });

  it('shutdown keeps trying within its bound and returns what could not be written', async () => {
    const h = harness(Infinity);
    const clock = { now: () => Date.now(), setTimeout: (f: () => void, ms: number) => setTimeout(f, ms), clearTimeout: (t: unknown) => clearTimeout(t as NodeJS.Timeout) };
    const q = new CommitQueue({ commit: () => { throw sqliteError('SQLITE_BUSY', 'database is locked'); } }, { timer: clock, retryMs: 10 });
    q.commit(args(1));
    q.commit(args(2));
    const lost = await q.settle(50);
    expect(lost.map((a) => (a.journal[0]!.event as { n: number }).n)).toEqual([1, 2]);
    expect(h.written).toEqual([]);
  });
});
