import { describe, expect, it } from 'vitest';
import { waitFor, type ViewSource } from '../../actors/wait-for.ts';

interface V { id: string; n: number }

/** A view source like the fleet host's: the current view per id, and a push on every change. */
function source(initial: V[]): ViewSource<V> & { push(v: V): void; listeners: number } {
  const views = new Map(initial.map((v) => [v.id, v]));
  const listeners = new Set<(v: V) => void>();
  return {
    view: (id) => views.get(id) ?? null,
    subscribe(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    push(v) {
      views.set(v.id, v);
      for (const l of [...listeners]) l(v);
    },
    get listeners() {
      return listeners.size;
    },
  };
}

describe('waitFor: one wait until a view matches, within a bound', () => {
  it('accepts the current view at once unless only fresh views count', async () => {
    const s = source([{ id: 'w', n: 1 }]);
    expect(await waitFor(s, 'w', (v) => v.n === 1)).toEqual({ view: { id: 'w', n: 1 }, by: 'accepted' });
    const fresh = waitFor(s, 'w', () => true, { fresh: true, timeoutMs: 5000 });
    s.push({ id: 'x', n: 9 }); // another worker's change is not ours
    s.push({ id: 'w', n: 2 });
    expect(await fresh).toEqual({ view: { id: 'w', n: 2 }, by: 'accepted' });
    expect(s.listeners).toBe(0);
  });

  it('answers with the latest view seen at the bound, and unsubscribes', async () => {
    const s = source([{ id: 'w', n: 1 }]);
    const seen: number[] = [];
    const p = waitFor(s, 'w', (v) => v.n > 5, { timeoutMs: 50, onView: (v) => seen.push(v.n) });
    s.push({ id: 'w', n: 3 });
    expect(await p).toEqual({ view: { id: 'w', n: 3 }, by: 'timeout' });
    expect(seen).toEqual([1, 3]);
    expect(s.listeners).toBe(0);
  });

  it('ends when the caller goes away, even if it had already gone', async () => {
    const s = source([{ id: 'w', n: 1 }]);
    const ac = new AbortController();
    const p = waitFor(s, 'w', () => false, { signal: ac.signal });
    ac.abort();
    expect(await p).toEqual({ view: { id: 'w', n: 1 }, by: 'aborted' });
    expect(await waitFor(s, 'w', () => false, { signal: ac.signal })).toEqual({ view: { id: 'w', n: 1 }, by: 'aborted' });
    expect(s.listeners).toBe(0);
  });

  it('with no id, sees every worker (the watch stream)', async () => {
    const s = source([]);
    const seen: string[] = [];
    const p = waitFor(s, null, () => false, { timeoutMs: 50, onView: (v) => seen.push(v.id) });
    s.push({ id: 'a', n: 1 });
    s.push({ id: 'b', n: 1 });
    expect((await p).by).toBe('timeout');
    expect(seen).toEqual(['a', 'b']);
  });
});
