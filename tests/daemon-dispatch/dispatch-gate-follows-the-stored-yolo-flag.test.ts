/**
 * The dispatch gate is decided by the project as stored: a non-yolo project's worker waits for
 * brief approval, a yolo project's does not. yolo is a boolean; nothing else turns the gate off.
 */
import { describe, expect, it } from 'vitest';
import { trackWorlds } from './dispatch-fixture.ts';

const world = trackWorlds();

describe('the dispatch gate follows the stored yolo flag', () => {
  it('asks for brief approval when the project is not yolo', async () => {
    const w = await world({ yolo: false });
    await w.dispatch();
    expect(w.fleet.briefGates).toEqual([true]);
  });

  it('skips brief approval only for a yolo project', async () => {
    const w = await world({ yolo: true });
    await w.dispatch();
    expect(w.fleet.briefGates).toEqual([false]);
  });

});
