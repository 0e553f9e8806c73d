/**
 * The gate that keeps tmux structure changes (new-session, link-window, kill-pane) away from a
 * control client's connect: shared work runs side by side, the exclusive section waits for the
 * shared work in flight and holds new shared work back until it is done.
 */
import { describe, expect, it } from 'vitest';
import { StructureGate } from '../../io/terminal/tmux/structure-gate.ts';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const ticks = async (n = 5) => {
  for (let i = 0; i < n; i++) await Promise.resolve();
};

describe('structure gate', () => {
  it('runs shared work side by side', async () => {
    const gate = new StructureGate();
    const a = deferred();
    const b = deferred();
    const started: string[] = [];
    const runA = gate.shared(async () => { started.push('a'); await a.promise; });
    const runB = gate.shared(async () => { started.push('b'); await b.promise; });
    await ticks();
    expect(started).toEqual(['a', 'b']);
    a.resolve();
    b.resolve();
    await Promise.all([runA, runB]);
  });

  it('an exclusive section waits for shared work in flight and holds new shared work back', async () => {
    const gate = new StructureGate();
    const log: string[] = [];
    const inFlight = deferred();
    const connect = deferred();
    const first = gate.shared(async () => { log.push('shared-1 start'); await inFlight.promise; log.push('shared-1 end'); });
    await ticks();
    const exclusive = gate.exclusively(async () => { log.push('connect start'); await connect.promise; log.push('connect end'); });
    await ticks();
    const later = gate.shared(async () => { log.push('shared-2'); });
    await ticks();
    expect(log).toEqual(['shared-1 start']); // the connect waits for shared-1; shared-2 waits for the connect
    inFlight.resolve();
    await ticks(10);
    expect(log).toEqual(['shared-1 start', 'shared-1 end', 'connect start']);
    connect.resolve();
    await Promise.all([first, exclusive, later]);
    expect(log).toEqual(['shared-1 start', 'shared-1 end', 'connect start', 'connect end', 'shared-2']);
  });

  it('a failing section releases the gate', async () => {
    const gate = new StructureGate();
    await expect(gate.exclusively(async () => { throw new Error('attach failed'); })).rejects.toThrow('attach failed');
    await expect(gate.shared(async () => { throw new Error('new-session failed'); })).rejects.toThrow('new-session failed');
    expect(await gate.shared(async () => 'ran')).toBe('ran');
    expect(await gate.exclusively(async () => 'ran alone')).toBe('ran alone');
  });
});
