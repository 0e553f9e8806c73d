/**
 * The overlap reads (daemon/fleet/overlaps.ts) at the scale of a large fleet: two git processes a
 * worker, and starting a process blocks the daemon's one thread while it forks. 500 workers of
 * one repository read all at once held the first status after a restart for 3.8 s (issue 46's
 * resume figure). So a few worktrees are read at a time, and an ask with a bound answers without
 * the repositories still being read — naming their workers as unread, never as "no overlap" —
 * while the reads go on for the next ask; once each has been read, its last answer stands in.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { WorkerViewLike } from '../../actors/fleet-api.ts';
import { createOverlapReader, OVERLAP_READS_AT_ONCE, READ_MS_PRIOR } from '../../daemon/fleet/overlaps.ts';
import type { Touched } from '../../io/git/touched-files.ts';

// Worktrees that exist (a missing one is never read: worktree-presence.ts).
const root = mkdtempSync(join(tmpdir(), 'kh-test-overlaps-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const N = 40;
const views = Array.from({ length: N }, (_, i) => ({ id: `w${i}`, host: 'local', condition: 'working', marks: [], worktree: root, base: 'main' }) as unknown as WorkerViewLike);
// Every worker asked of is of one repository.
const store = { workerRepos: () => ({ get: () => '/repo' }) as unknown as Map<string, string> };

describe('overlap reads at the scale of a large fleet', () => {
  it(`reads ${OVERLAP_READS_AT_ONCE} worktrees at a time, answers a bounded ask without the unread ones, and has them at the next ask`, async () => {
    let inFlight = 0;
    let most = 0;
    let calls = 0;
    const waiting: Array<() => void> = [];
    let hold = true;
    const read = (v: WorkerViewLike): Promise<Touched | null> => {
      calls++;
      inFlight++;
      most = Math.max(most, inFlight);
      const files = v.id === 'w0' || v.id === 'w1' ? ['shared.ts'] : [`${v.id}.ts`];
      return new Promise((resolve) => {
        const done = () => {
          inFlight--;
          resolve({ files, capped: false });
        };
        if (hold) waiting.push(done);
        else setTimeout(done, 1);
      });
    };
    let t = 0;
    const reader = createOverlapReader({ store, read, now: () => t });

    const first = await reader.of(views, undefined, 50);
    expect(first.byWorker.size, 'nothing is said of a repository whose files are still being read').toBe(0);
    expect([...first.unread].sort()).toEqual(views.map((v) => v.id).sort());
    expect(inFlight, `at most ${OVERLAP_READS_AT_ONCE} reads at once`).toBe(OVERLAP_READS_AT_ONCE);

    hold = false;
    for (const done of waiting.splice(0)) done();
    const second = await reader.of(views);
    expect(most).toBe(OVERLAP_READS_AT_ONCE);
    expect(second.unread.size).toBe(0);
    expect([...second.byWorker.keys()].sort()).toEqual(['w0', 'w1']);
    expect(second.byWorker.get('w0')).toEqual([{ with: 'w1', files: ['shared.ts'], count: 1 }]);

    // Within the answer's second, the same answer without reading again; after it, read afresh.
    expect(calls).toBe(N);
    const third = await reader.of(views, undefined, 50);
    expect(third.unread.size).toBe(0);
    expect(calls, 'read once within its second').toBe(N);
    t += 1_001;
    const fourth = await reader.of(views, 'w0', 1_000);
    expect(calls, 'read afresh after it').toBe(2 * N);
    expect(fourth.byWorker.get('w1')).toEqual([{ with: 'w0', files: ['shared.ts'], count: 1 }]);
    expect(most).toBe(OVERLAP_READS_AT_ONCE);

    // Reads that outlast the bound once every worker has an answer: the previous answers stand in.
    hold = true;
    t += 1_001;
    const fifth = await reader.of(views, undefined, 50);
    expect(fifth.unread.size).toBe(0);
    expect(fifth.byWorker.get('w0')).toEqual([{ with: 'w1', files: ['shared.ts'], count: 1 }]);
    hold = false;
    for (const done of waiting.splice(0)) done();
  });

  it('an ask does not wait at all for reads that cannot end within its bound: hundreds of workers never read answer at once, a few are waited for', async () => {
    const many = Array.from({ length: 500 }, (_, i) => ({ ...views[0]!, id: `m${i}` }) as WorkerViewLike);
    const slow = (ms: number) => (v: WorkerViewLike) => new Promise<Touched>((resolve) => setTimeout(() => resolve({ files: v.id.endsWith('0') ? ['shared.ts'] : [`${v.id}.ts`], capped: false }), ms));
    const cold = createOverlapReader({ store, read: slow(READ_MS_PRIOR) });
    const asked = performance.now();
    const answer = await cold.of(many, undefined, 300);
    const took = performance.now() - asked;
    // 500 reads, 4 at a time, at ~50 ms each: ~6 s ahead of the ask, so its 300 ms bound is not spent.
    expect(took, 'answered without waiting out the bound').toBeLessThan(100);
    expect(answer.unread.size).toBe(500);
    expect(answer.byWorker.size).toBe(0);

    // A few workers whose reads end within the bound are waited for, and their overlaps said.
    const few = many.slice(0, 3).map((v, i) => ({ ...v, id: `f${i}0` }) as WorkerViewLike);
    const small = createOverlapReader({ store, read: slow(5) });
    const said = await small.of(few, undefined, 300);
    expect(said.unread.size).toBe(0);
    expect(said.byWorker.get('f00')?.map((o) => o.with).sort()).toEqual(['f10', 'f20']);
  });
});
