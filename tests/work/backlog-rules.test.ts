/**
 * The backlog's rules on a real SQLite file: ready means queued, not held, every blocker done;
 * closing a blocker releases what it blocked; refusals (cycle, unknown item, second open item
 * with the same id, bad hold kind) change nothing; all of it survives a reopen of the database.
 */
import { describe, expect, it } from 'vitest';
import { useWorkDb } from './work-fixture.ts';

const workDb = useWorkDb();

const ids = (items: { id: string }[]) => items.map((i) => i.id).sort();

describe('backlog', () => {
  it('ready lists only queued items that are not held and whose blockers are all done', () => {
    const db = workDb('backlog-ready');
    const b = db.stores.backlog;
    for (const id of ['a', 'b', 'c', 'd']) b.add({ id, project: 'shop', title: `item ${id}` });
    b.block('b', 'a');
    b.hold('c', 'waits for the vendor', 'external');
    b.start('d');
    expect(ids(b.ready())).toEqual(['a']);
    b.done('a');
    expect(ids(b.ready())).toEqual(['b']);
    b.unhold('c');
    expect(ids(b.ready())).toEqual(['b', 'c']);
  });

  it('closing a blocker releases what it blocked (its edges go); dropping one does too', () => {
    const db = workDb('backlog-release');
    const b = db.stores.backlog;
    for (const id of ['a', 'b', 'x', 'y']) b.add({ id, project: 'shop', title: id });
    b.block('b', 'a');
    b.block('y', 'x');
    expect(b.get('b').waitingOn).toEqual(['a']);
    b.done('a', { note: 'shipped' });
    expect(b.get('b').blockedBy).toEqual([]);
    b.drop('x');
    expect(b.get('y').waitingOn).toEqual([]);
    expect(ids(b.ready())).toEqual(['b', 'y']);
  });

  it('a dependency cycle is refused and nothing is changed', () => {
    const db = workDb('backlog-cycle');
    const b = db.stores.backlog;
    for (const id of ['a', 'b', 'c']) b.add({ id, project: 'shop', title: id });
    b.block('b', 'a');
    b.block('c', 'b');
    expect(() => b.block('a', 'c')).toThrow(/cycle/);
    expect(() => b.block('a', 'a')).toThrow(/cycle/);
    expect(b.get('a').blockedBy).toEqual([]);
    expect(ids(b.ready())).toEqual(['a']);
  });

  it('an unknown item, a second open item with the same id and an unknown hold kind are refused', () => {
    const db = workDb('backlog-refusals');
    const b = db.stores.backlog;
    b.add({ id: 'a', project: 'shop', title: 'first' });
    expect(() => b.add({ id: 'a', project: 'shop', title: 'again' })).toThrow(/already exists/);
    expect(() => b.block('a', 'ghost')).toThrow(/no backlog item "ghost"/);
    expect(() => b.start('ghost')).toThrow(/no backlog item/);
    expect(() => b.hold('a', 'why', 'captain')).toThrow(/hold kind "captain" is unknown/);
    expect(() => b.add({ id: 'bad id', project: 'shop', title: 't' })).toThrow(/not a slug/);
    expect(b.list().map((i) => [i.id, i.title, i.hold])).toEqual([['a', 'first', null]]);
  });

  it('done then reopen brings an item back to queued; a closed id may be added again as a new item', () => {
    const db = workDb('backlog-reopen');
    const b = db.stores.backlog;
    b.add({ id: 'a', project: 'shop', title: 'first' });
    b.start('a');
    expect(b.get('a').state).toBe('in-flight');
    b.done('a', { pr: 'https://example.invalid/pr/1' });
    expect(b.get('a')).toMatchObject({ state: 'done', pr: 'https://example.invalid/pr/1' });
    expect(() => b.done('a')).toThrow(/is done/);
    b.reopen('a');
    expect(b.get('a').state).toBe('queued');
    b.drop('a');
    b.add({ id: 'a', project: 'shop', title: 'second life' });
    expect(b.get('a')).toMatchObject({ state: 'queued', title: 'second life' });
  });

  it('items, holds and edges are all there after the database is reopened', () => {
    const db = workDb('backlog-reopen-db');
    db.stores.backlog.add({ id: 'a', project: 'shop', title: 'a', brief: '## Read first\n' });
    db.stores.backlog.add({ id: 'b', project: 'shop', title: 'b' });
    db.stores.backlog.block('b', 'a');
    db.stores.backlog.hold('a', 'ask Sam', 'person');
    const b = db.reopen().backlog;
    expect(b.get('a')).toMatchObject({ hold: { reason: 'ask Sam', kind: 'person' }, brief: '## Read first\n' });
    expect(b.get('b').waitingOn).toEqual(['a']);
    expect(b.ready()).toEqual([]);
  });
});
