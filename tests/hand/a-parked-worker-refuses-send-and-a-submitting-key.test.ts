/**
 * Rule: a parked worker's next words are the person's answer, through `decide` (issue 38 item 5).
 * `send` into a worker parked on an open decision became a new turn and left the decision open;
 * now it is refused as a dialog's is, naming `hand decide <key>` — `--allow-non-empty-box` does not
 * override it (that flag is about the box, not the decision) — and so is an Enter, which would
 * submit what is in the box. Other keys still reach it; `decide` delivers the answer.
 */
import { describe, expect, it } from 'vitest';
import { useDaemonWorld } from '../helpers/daemon-world.ts';
import { waitFor } from '../helpers/temp.ts';

const world = useDaemonWorld();

describe('a parked worker refuses send and a submitting key', () => {
  it('send (with or without --allow-non-empty-box) and keys enter are refused naming decide; decide still delivers', async () => {
    const w = await world('parked-send', { annexYolo: true });
    await w.dispatch('p1', 'MODE:park');
    const parked = await w.call('wait', { id: 'p1', until: 'settled', timeoutMs: 30_000 });
    expect(parked.met, JSON.stringify(parked)).toBe(true);
    // The decision opens when its report is read, just after the settle.
    const decision = await waitFor(async () => (await w.call<any[]>('decisions', {})).find((d) => d.worker === 'p1'), { what: "p1's open decision", timeoutMs: 15_000 });

    for (const allowNonEmptyBox of [false, true]) {
      const r = await w.refusal('send', { id: 'p1', text: 'use Postgres', allowNonEmptyBox });
      expect(r.code).toBe('worker-parked');
      expect(r.message).toContain(`hand decide ${decision.key}`);
      expect(r.message).toContain('new turn');
    }
    const enter = await w.refusal('keys', { id: 'p1', key: 'enter' });
    expect(enter.code).toBe('worker-parked');
    expect(enter.message).toContain(`hand decide ${decision.key}`);
    // A key that submits nothing still reaches it.
    expect((await w.call('keys', { id: 'p1', key: 'escape' })).id ?? 'ok').toBeTruthy();
    // The person's answer goes through decide, and is delivered.
    const decided = await w.call('decide', { key: decision.key, answer: 'Postgres' });
    expect(JSON.stringify(decided)).toMatch(/delivered|pending|typed/);
  }, 90_000);
});
