/**
 * Rule: the away account says what waits on the person when they return, whenever it began
 * (issue 38 item 4). `afk on` with one worker already on a menu, then `afk off`: it was listed under
 * "Still running" with only its menu footer, not its question, and finished workers waiting for
 * their landing were listed there too. Now: everything that waits — blocked before or during the
 * absence — under "Waiting on you" with its question quoted and the command; finished workers
 * under their own heading with `hand land`; "Still running" holds only workers at work.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemonWorld } from '../helpers/daemon-world.ts';
import { formatAwayAccount } from '../../cli/commands/away-text.ts';

const world = useDaemonWorld();

describe('the away account names what waits, whenever it began', () => {
  it('a worker blocked before afk on waits on you with its question; a finished one waits for its landing; only work in progress is still running', async () => {
    const w = await world('away-account', { annexYolo: true });
    await w.dispatch('q1', 'MODE:ask');
    await w.dispatch('d1', `MODE:report ${join(w.home, 'workers', 'd1', 'out', 'report.md')}`);
    await w.dispatch('r1', 'MODE:hang');
    await w.call('wait', { id: 'q1', until: 'blocked', timeoutMs: 30_000 });
    await w.call('wait', { id: 'd1', until: 'settled', timeoutMs: 30_000 });
    await w.call('afk.on', { note: 'lunch' });
    const { account } = await w.call('afk.off', {});
    const waits = account.waitingOnYou.filter((x: any) => x.worker === 'q1');
    expect(waits, JSON.stringify(account.waitingOnYou)).toHaveLength(1);
    expect(waits[0].question).toMatch(/^worker q1 wrote: ".+"$/);
    expect(waits[0].command).toMatch(/^hand answer q1 <n> --fingerprint [0-9a-f]{16}$/);
    expect(account.readyToLand).toEqual([{ worker: 'd1', text: 'd1 finished and wrote its report', command: 'hand land d1' }]);
    expect(account.stillRunning.map((r: any) => r.worker)).toEqual(['r1']);
    const text = formatAwayAccount(account);
    expect(text).toMatch(/Waiting on you:\n {2}q1 is blocked on question and waits for you — worker q1 wrote: "/);
    expect(text).toContain('Finished, waiting for your landing:\n  d1 finished and wrote its report → hand land d1');
    expect(text).toMatch(/Still running:\n {2}r1 /);
  }, 90_000);
});
