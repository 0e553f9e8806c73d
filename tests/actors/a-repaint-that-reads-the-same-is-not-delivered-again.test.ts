/**
 * Issue 26: a working agent repaints its spinner and timer ten times a second. Each repaint used
 * to become a SCREEN event, a machine step, a view, a journal check and a push to every
 * listener, although it read exactly as the last one (the fingerprint and the last lines are
 * normalised). Now the pane feed hands a reading over only when it reads differently — and
 * always when a read was asked for (after a phase change the machine must see the screen again).
 */
import { describe, expect, it } from 'vitest';
import { PaneFeed } from '../../actors/pane-feed.ts';
import type { Screen, ScreenReading } from '../../io/screen/types.ts';
import { labelOf, labelPane } from './helpers/label-pane.ts';
import { reading } from './helpers/scripted-host.ts';


/** Spinner frames read alike (the normalised working screen); a menu reads otherwise. */
const analyse = (screen: Screen): ScreenReading =>
  labelOf(screen).startsWith('spinner')
    ? reading({ state: 'working', fingerprint: 'f-work', lastActivity: 'Thinking' })
    : reading({ state: 'blocked', awaitingInput: true, blockedReason: 'permission', fingerprint: 'f-menu' });

describe('a repaint that reads the same is not delivered again', () => {
  it('spinner frames after the first are dropped, the menu is delivered, and a requested read always is', async () => {
    const p = labelPane('spinner-a');
    const got: ScreenReading[] = [];
    const feed = new PaneFeed({ host: p.host, paneId: '%1', agent: 'claude', analyse, onReading: (r) => got.push(r), onExit: () => {} });
    feed.start();
    await feed.settled();
    expect(got.map((r) => r.state), 'the first reading').toEqual(['working']);
    for (const frame of ['spinner-b', 'spinner-c', 'spinner-d']) {
      p.draw(frame);
      await feed.settled();
    }
    expect(got.length, 'spinner frames that read the same').toBe(1);
    p.draw('menu');
    await feed.settled();
    expect(got.map((r) => r.state)).toEqual(['working', 'blocked']);
    feed.requestRead();
    await feed.settled();
    expect(got.map((r) => r.state), 'a read asked for is delivered though it reads the same').toEqual(['working', 'blocked', 'blocked']);
    feed.stop();
  });
});
