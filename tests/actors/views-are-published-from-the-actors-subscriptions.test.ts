/**
 * Rule (issue 20, item 3): views reach waiters from the actors' own subscriptions, not from the
 * journal's inspection hook; the journal stays an audit trail. A listener hears every stage a
 * worker passes through, only after the journal committed it, also for a fleet restored from its
 * snapshot and for an id dispatched again; the journal itself publishes nothing.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { settle, showTurnEnd, toWorking, type Harness, useHarness } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { KINGSHAND_ROOT as ROOT } from '../../io/root.ts';
import type { WorkerView } from '../../actors/worker-view.ts';

const harness = useHarness();

/** Each view heard, with whether the journal already held a row that moved the worker to its stage. */
function listen(hh: Harness, id: string): Array<{ stage: string; committed: boolean }> {
  const heard: Array<{ stage: string; committed: boolean }> = [];
  hh.fleet.subscribe((v: WorkerView) => {
    if (v.id !== id) return;
    const rows = hh.store.journal({ actorId: `worker:${id}` });
    heard.push({ stage: v.stage, committed: rows.some((r) => r.to === v.stage) });
  });
  return heard;
}

describe('views are published from the actors subscriptions', () => {
  it('a listener hears every stage a worker passes through, each only after the journal committed it', async () => {
    const h = await harness.start();
    const heard = listen(h, 'w1');
    const pane = await toWorking(h, 'w1');
    await showTurnEnd(h, pane);
    const stages = [...new Set(heard.map((x) => x.stage))];
    for (const stage of ['spawning', 'starting.waiting', 'running.working']) {
      expect(stages, `stages heard: ${stages.join(' → ')}`).toContain(stage);
    }
    expect(h.fleet.view('w1')!.stage.startsWith('settled'), `ended at ${h.fleet.view('w1')!.stage}`).toBe(true);
    expect(stages.some((s) => s.startsWith('settled')), `stages heard: ${stages.join(' → ')}`).toBe(true);
    expect(heard.filter((x) => !x.committed), 'views heard before their stage was journaled').toEqual([]);
  });

  it('a fleet restored from its snapshot publishes its workers from their restored actors', async () => {
    const { h, pane } = await harness.working('w1');
    await h.restart();
    await settle(h);
    const heard = listen(h, 'w1');
    h.host.show(pane, reading({ state: 'working', fingerprint: 'f-more-work' }));
    await showTurnEnd(h, pane, reading({ fingerprint: 'f-after-restart' }));
    expect(heard.map((x) => x.stage).some((s) => s.startsWith('settled')), `heard: ${heard.map((x) => x.stage).join(' → ')}`).toBe(true);
  });

  it('an id dispatched again is published from its new actor only', async () => {
    const { h, pane: first } = await harness.working('w1');
    h.host.exit(first, 0);
    await settle(h);
    expect(h.fleet.view('w1')!.condition).toBe('gone');
    await h.fleet.release('w1');
    const heard = listen(h, 'w1');
    const second = await toWorking(h, 'w1', 'f-second');
    expect(second).not.toBe(first);
    // The old actor is stopped and unfollowed: nothing it did reaches the listener as a second voice.
    const gone = heard.filter((x) => x.stage === 'gone' || x.stage === 'stopped');
    expect(gone, `heard: ${heard.map((x) => x.stage).join(' → ')}`).toEqual([]);
    expect(heard.at(-1)!.stage).toBe('running.working');
  });

  it('the journal publishes nothing: it takes no listener, and the fleet host follows its actors instead', () => {
    // A structural rule, checked on the source: the inspection hook is the audit trail's only
    // input, and nothing the journal is given can call a listener.
    const journal = readFileSync(join(ROOT, 'actors', 'fleet-journal.ts'), 'utf8');
    const options = journal.slice(journal.indexOf('export interface JournalOptions'), journal.indexOf('}', journal.indexOf('export interface JournalOptions')));
    const callbacks = [...options.matchAll(/^\s*(\w+)\??\s*(?:\(|:\s*\()/gm)].map((m) => m[1]);
    // Its log, and the database's health (locked, full): neither ever carries a worker's view.
    expect(callbacks, 'callbacks the journal is given').toEqual(['log', 'onStoreHealth']);
    // The fleet host's registry owns the fleet actor and follows it (fleet-host.ts assembles it).
    const registry = readFileSync(join(ROOT, 'actors', 'fleet-registry.ts'), 'utf8');
    expect(registry).toMatch(/followWorkers\(fleet,/);
  });
});
