/**
 * The base watch (daemon/fleet/base-settle-watch.ts) compares a local-only project's base with its
 * recorded tip at every settle. After a restart every restored worker's first view is a settle,
 * and 500 workers of one repository asked git 500 times, one after another, through the first
 * seconds of a resume (issue 46). A settle whose base already has a check waiting adds none; a
 * move is still told once, and settles of another base, or after the check began, are checked.
 * Real git; the recorded tips' reads are counted (a check reads its base's once, and once more to mark a move told).
 */
import { describe, expect, it } from 'vitest';
import { startBaseSettleWatch } from '../../daemon/fleet/base-settle-watch.ts';
import type { BaseTip, BaseTips } from '../../persistence/base-tips.ts';
import { labelOf } from '../../actors/notify/conditions.ts';
import type { WorkerViewLike } from '../../actors/fleet-api.ts';
import { commitFile, git, makeRepo, trackFixtures } from '../git/git-fixture.ts';

const track = trackFixtures();

function world(repos: Record<string, string>) {
  const rows = new Map<string, { id: string; project: string; repo: string; base: string }>();
  const listeners: ((v: WorkerViewLike) => void)[] = [];
  const tips = new Map<string, BaseTip>();
  let reads = 0;
  const baseTips: BaseTips = {
    get: (repo, branch) => {
      reads++;
      return tips.get(`${repo}\0${branch}`);
    },
    set: (repo, branch, tip) => void tips.set(`${repo}\0${branch}`, tip),
  };
  const told: string[] = [];
  const watch = startBaseSettleWatch({
    store: {
      getWorker: (id: string) => rows.get(id) ?? null,
      getProject: (name: string) => (repos[name] ? { name, repo: repos[name], posture: 'local-only' } : null),
    } as never,
    fleet: { subscribe: (f: (v: WorkerViewLike) => void) => (listeners.push(f), () => {}) } as never,
    stores: { away: { append: () => {} } } as never,
    notifier: { notify: () => {} } as never,
    baseTips,
    log: (o, msg) => void (msg === 'base moved outside a landing' && told.push(String(o.worker))),
  });
  const settled = (id: string) => ({ id, condition: 'settled', waitingOn: null, reportExists: false }) as unknown as WorkerViewLike;
  return {
    worker(id: string, project: string) {
      rows.set(id, { id, project, repo: repos[project]!, base: 'main' });
    },
    settle(id: string) {
      const v = settled(id);
      expect(labelOf(v)).toBe('settled');
      for (const f of listeners) f(v);
    },
    record: (repo: string) => baseTips.set(repo, 'main', { sha: git(repo, 'rev-parse', 'main'), by: 'landing', at: 1 }),
    reads: () => reads,
    told,
    settledAll: () => watch.settled(),
  };
}

describe('workers of one base settling together', () => {
  it('are checked once for their base, not once each; another base is checked on its own; a move is told once', async () => {
    const a = track(makeRepo({ label: 'base-once-a' })).repo;
    const b = track(makeRepo({ label: 'base-once-b' })).repo;
    const w = world({ pa: a, pb: b });
    w.record(a);
    w.record(b);
    commitFile(a, 'moved.txt', 'outside a landing\n'); // a's base moved; b's did not
    for (let i = 0; i < 50; i++) w.worker(`a${i}`, 'pa');
    for (let i = 0; i < 50; i++) w.worker(`b${i}`, 'pb');
    // As after a restart: every restored worker settles at once.
    for (let i = 0; i < 50; i++) {
      w.settle(`a${i}`);
      w.settle(`b${i}`);
    }
    await w.settledAll();
    // a's check reads the tip and, telling the move, marks it told (a second read); b's check reads it once.
    // One check per worker would be 50 + 1 + 50.
    expect(w.reads(), 'one check per base').toBe(3);
    expect(w.told).toEqual(['a0']);
  });

  it('a settle after its base\'s check began is checked again (it may follow a newer move)', async () => {
    const a = track(makeRepo({ label: 'base-again' })).repo;
    const w = world({ pa: a });
    w.record(a);
    w.worker('a0', 'pa');
    w.worker('a1', 'pa');
    w.settle('a0');
    await w.settledAll();
    w.settle('a1');
    await w.settledAll();
    expect(w.reads()).toBe(2);
    expect(w.told).toEqual([]);
  });
});
