/**
 * A rejected brief or a discarded worker returns its backlog item to `queued`, journaled
 * (issue 23 item 4): the item stayed in flight, `backlog reopen` said it was already open and
 * `dispatch --item` refused it, so nothing could take the work again.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';

let w: CliWorld;
beforeAll(async () => {
  w = await makeCliWorld('item-requeue');
  expect((await w.hand(['annex', w.repo])).code).toBe(0);
});
afterAll(async () => {
  await w?.cleanup();
});

async function ok(args: string[]) {
  const r = await w.hand([...args, '--json']);
  expect(r.code, `hand ${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
  return r.json;
}

/** The journal rows kingshand wrote for an item (read-only: the daemon holds the database). */
function itemJournal(item: string): { event: { type: string; worker: string }; from: string; to: string }[] {
  const db = new Database(join(w.home, 'fleet.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT event_json, from_json, to_json FROM journal WHERE actor_id = ? ORDER BY seq').all(`item:${item}`) as Record<string, string>[];
    return rows.map((r) => ({ event: JSON.parse(r.event_json!), from: JSON.parse(r.from_json!), to: JSON.parse(r.to_json!) }));
  } finally {
    db.close();
  }
}

describe('a rejected brief or a discarded worker returns its item to queued', () => {
  it('hand reject of the brief puts the item back in the queue, journaled, and dispatch --item takes it again', async () => {
    await ok(['backlog', 'add', 'i1', '--project', 'repo', 'Fix the login']);
    const d = await ok(['dispatch', 'try1', '--item', 'i1', '--agent', 'mock']);
    expect(d.gated).toBe(true);
    expect((await ok(['backlog', 'show', 'i1'])).state).toBe('in-flight');

    const rej = await ok(['reject', 'try1', '--reason', 'wrong approach']);
    expect(rej.item).toMatchObject({ id: 'i1', state: 'queued' });
    expect((await ok(['backlog', 'show', 'i1'])).state).toBe('queued');
    expect(itemJournal('i1')).toEqual([expect.objectContaining({ event: expect.objectContaining({ type: 'backlog.requeued', worker: 'try1' }), from: 'in-flight', to: 'queued' })]);

    const again = await ok(['dispatch', 'try2', '--item', 'i1', '--agent', 'mock']);
    expect(again.item).toBe('i1');
  });

  it('hand discard of its worker puts the item back in the queue, journaled', async () => {
    // yolo: the worker starts at once (a mock agent), so it can stop and be discarded.
    expect((await w.hand(['annex', w.repo, '--yolo'])).code).toBe(0);
    await ok(['backlog', 'add', 'i2', '--project', 'repo', 'Tidy the docs']);
    await ok(['dispatch', 'run1', '--item', 'i2', '--agent', 'mock']);
    await ok(['wait', 'run1', '--until', 'settled', '--timeout', '30s']);
    await ok(['stop', 'run1']);
    expect((await ok(['backlog', 'show', 'i2'])).state).toBe('in-flight');

    const dis = await ok(['discard', 'run1']);
    expect(dis.item).toMatchObject({ id: 'i2', state: 'queued' });
    expect((await ok(['backlog', 'show', 'i2'])).state).toBe('queued');
    expect(itemJournal('i2')).toEqual([expect.objectContaining({ event: expect.objectContaining({ type: 'backlog.requeued', worker: 'run1' }), from: 'in-flight', to: 'queued' })]);
  });
});
