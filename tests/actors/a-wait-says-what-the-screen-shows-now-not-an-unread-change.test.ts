/**
 * Rule: `hand wait` answers a condition already met from a reading of the pane taken at the call,
 * never from one the screen has since left. Under load a feed's read of a small burst waits its
 * turn; a full run saw `hand wait --until settled` answer "blocked" on a Claude Code menu that
 * `hand read` showed gone a moment before (quiet 1.3 s, the worker at work). Here the pane
 * changes without telling its subscribers (a read not yet taken): the fleet's view is the old
 * menu, and the wait must still say what the screen shows.
 */
import { describe, expect, it } from 'vitest';
import { makeHandlers, type HandlerDeps } from '../../daemon/fleet/handlers.ts';
import { reading } from './helpers/scripted-host.ts';
import { show, useHarness } from './helpers/harness.ts';

const menu = reading({ state: 'blocked', awaitingInput: true, blockedReason: 'question', fingerprint: 'f-menu', lastActivity: 'Which database?' });
const working = reading({ state: 'working', fingerprint: 'f-work-2', lastActivity: 'Combobulating' });

describe('a wait says what the screen shows now, not a change still unread', () => {
  const the = useHarness();

  it('the menu went away unread: the fleet reads the pane for the caller, and wait settled does not say blocked', async () => {
    const { h, pane } = await the.working('w1');
    await show(h, pane, menu);
    expect(h.fleet.view('w1')!.stage).toBe('running.blocked');
    // The agent took the answer and is at work; the feed has not read it yet.
    h.host.panes.get(pane)!.reading = working;
    expect(h.fleet.view('w1')!.stage, 'the view before a read: the menu').toBe('running.blocked');

    const handlers = makeHandlers({ fleet: h.fleet, store: h.store } as unknown as HandlerDeps);
    const ctx = { signal: new AbortController().signal, progress: () => {} };
    const r = await handlers.wait({ id: 'w1', until: 'settled', timeoutMs: 50 }, ctx as never);
    expect(r.reason, 'said from the screen as it is').not.toBe('blocked');
    expect(r.stage).toBe('running.working');
  });

  it('freshView gives the view after a reading taken now', async () => {
    const { h, pane } = await the.working('w2');
    await show(h, pane, menu);
    h.host.panes.get(pane)!.reading = working;
    const v = await h.fleet.freshView('w2');
    expect(v!.stage).toBe('running.working');
  });
});
