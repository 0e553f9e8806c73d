/**
 * Rule: "park it" is visible and does not outlive its item (issue 38 item 6). A hold on an item in
 * flight was shown nowhere (survey and the digest's QUEUE read queued items only) and stayed
 * attached after the item was done. Now it shows in survey (and so in the digest and the page,
 * which read survey), beside its worker; and when the item is done — by hand or by its worker's
 * landing — the hold is cleared and the journal says so.
 */
import { describe, expect, it } from 'vitest';
import { useDaemonWorld } from '../helpers/daemon-world.ts';

const world = useDaemonWorld();

describe('a hold on an item in flight', () => {
  it('shows in survey beside its worker, and is cleared (journaled) when the item is done', async () => {
    const w = await world('hold-in-flight');
    await w.call('annex', { repo: w.repo, yolo: true, name: 'shop' });
    await w.call('backlog.add', { id: 'checkout', project: 'shop', title: 'Rework the checkout' });
    await w.call('dispatch', { item: 'checkout', id: 'c1', brief: w.brief('c1', 'MODE:ask'), agent: 'mock', backend: 'tmux', readPaths: [], env: w.env });
    expect((await w.call('backlog.show', { id: 'checkout' })).state).toBe('in-flight');
    await w.call('backlog.hold', { id: 'checkout', reason: 'wait for the design review', kind: 'person' });

    const survey = await w.call('survey', {});
    const held = survey.needsYou.find((i: any) => i.id === 'checkout');
    expect(held, JSON.stringify(survey.needsYou)).toMatchObject({ kind: 'held-for-you' });
    expect(held.text).toContain('item checkout held (person) while in flight (worker c1): wait for the design review');
    const summary = await w.call('work.summary', {});
    expect(summary.backlog.held).toBe(1);

    const done = await w.call('backlog.done', { id: 'checkout' });
    expect(done.hold ?? null, 'the hold goes with the item').toBeNull();
    const after = await w.call('survey', {});
    expect([...after.needsYou, ...after.next].filter((i: any) => i.id === 'checkout')).toEqual([]);
    const journal = await w.call('journal', {});
    expect(journal.map((e: any) => e.text)).toContain('item checkout is done: its hold (person: wait for the design review) is cleared');
  }, 60_000);
});
