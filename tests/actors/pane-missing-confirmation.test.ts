/**
 * Rule: a herdr (or tmux) pane is gone only after a confirmed second read with the server up.
 * The live path: a failed read is could-not-tell (blind); RECHECK_MS later the pane is read
 * again and, failing that, the host's list and server state decide. Server down → waitFailed.
 */
import { describe, it, expect } from 'vitest';
import { settle, toWorking, type Harness, advance, useHarness } from './helpers/harness.ts';
import { ScriptedHost, reading } from './helpers/scripted-host.ts';
import { conditionOf } from '../../actors/wait-report.ts';
import { RECHECK_MS, RETRY_MS } from '../../actors/pane-feed.ts';

let h: Harness;
const harness = useHarness();

/** The pane vanishes and its last subscribers hear of a change, so the feed reads it. */
function vanish(pane: string): ReturnType<ScriptedHost['panes']['get']> {
  const p = h.host.panes.get(pane)!;
  h.host.panes.delete(pane);
  for (const l of [...p.listeners]) l({ type: 'changed' });
  return p;
}

describe('herdr gone only after a confirmed second read with the server up', () => {
  it('a failed read is blind first; gone only once the second read fails and the server is up', async () => {
    h = await harness.start({ host: new ScriptedHost('herdr', true) });
    const pane = await toWorking(h, 'h1');
    vanish(pane);
    await settle(h);
    expect(h.fleet.view('h1')!.stage).toBe('running.blind');
    await advance(h, RECHECK_MS - 1);
    expect(h.fleet.view('h1')!.stage).toBe('running.blind');
    await advance(h, 1);
    const v = h.fleet.view('h1')!;
    expect(v.stage).toBe('gone');
    expect(conditionOf(v)).toBe('gone');
  });

  it('with the server down (or not answering) the worker is waitFailed, never gone, and a later confirmed read decides', async () => {
    h = await harness.start({ host: new ScriptedHost('herdr', true) });
    const pane = await toWorking(h, 'h2');
    vanish(pane);
    h.host.serverUp = false;
    await settle(h);
    await advance(h, RECHECK_MS);
    let v = h.fleet.view('h2')!;
    expect(v.stage).toBe('waitFailed');
    expect(v.problem).toBe('wait-failed');
    expect(conditionOf(v)).toBe('wait-failed');
    await advance(h, RETRY_MS + RECHECK_MS);
    expect(h.fleet.view('h2')!.stage).toBe('waitFailed');
    // The server answers again and the pane is still not there: now that is proof.
    h.host.serverUp = true;
    await advance(h, RETRY_MS + RECHECK_MS);
    v = h.fleet.view('h2')!;
    expect(v.stage).toBe('gone');
  });

  it('a read that fails once but succeeds on the second look is not gone', async () => {
    h = await harness.start({ host: new ScriptedHost('herdr', true) });
    const pane = await toWorking(h, 'h3');
    const saved = vanish(pane)!;
    await settle(h);
    h.host.panes.set(pane, saved);
    h.host.show(pane, reading({ state: 'working', fingerprint: 'f-again' }));
    await advance(h, RECHECK_MS);
    expect(h.fleet.view('h3')!.stage).toBe('running.working');
  });

  it('a pane the host lists as exited is an exit with its code, not a guess', async () => {
    h = await harness.start({ host: new ScriptedHost('herdr', true) });
    const pane = await toWorking(h, 'h4');
    const p = h.host.panes.get(pane)!;
    p.info = { ...p.info, alive: false, exitCode: 7 };
    const read = h.host.readVisible.bind(h.host);
    h.host.readVisible = async (id) => (id === pane ? { ok: false, error: 'read failed' } : read(id));
    for (const l of [...p.listeners]) l({ type: 'changed' });
    await settle(h);
    expect(h.fleet.view('h4')!.stage).toBe('running.blind');
    await advance(h, RECHECK_MS);
    const v = h.fleet.view('h4')!;
    expect(v.stage).toBe('gone');
    expect(v.exitCode).toBe(7);
  });
});
