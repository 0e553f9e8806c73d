/**
 * oneRunAtATime (io/time/one-run-at-a-time.ts), the review page's screen reads and the tests' screen
 * waits: never two runs at once; asked during a run (once or many times), exactly one more run
 * after it, which began after the last ask; a body that says false stops there.
 */
import { describe, expect, it } from 'vitest';
import { oneRunAtATime } from '../../io/time/one-run-at-a-time.ts';

describe('an async job runs one at a time, and once more when asked during a run', () => {
  it('three asks during a run make one more run; a body that says false stops the rest', async () => {
    let active = 0;
    let most = 0;
    const starts: number[] = [];
    let release: (() => void) | null = null;
    let stopAt = Infinity;
    const job = oneRunAtATime(async () => {
      starts.push(starts.length);
      active++;
      most = Math.max(most, active);
      await new Promise<void>((r) => (release = r));
      active--;
      return starts.length < stopAt;
    });
    const first = job();
    void job();
    void job();
    void job();
    release!();
    await new Promise((r) => setImmediate(r));
    expect(starts).toEqual([0, 1]);
    release!();
    await first;
    expect(starts).toEqual([0, 1]);
    expect(most).toBe(1);
    // A body that says false: an ask during it is not served by that run's loop.
    stopAt = 3;
    const again = job();
    void job();
    release!();
    await again;
    expect(starts).toEqual([0, 1, 2]);
  });
});
