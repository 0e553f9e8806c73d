/**
 * Rule: after the private tmux server dies, a pane created later (on the fresh server the host
 * starts) is watched afresh and reported alive while it runs. tmux numbers panes from %0 again
 * on a new server, so the dead server's pane ids come back for new panes: nothing remembered
 * about a dead server's pane (its exit, its window, its watch) may be applied to a new one.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTmuxHost, type TmuxHost } from '../../io/terminal/tmux/tmux-host.ts';
import type { PaneEvent } from '../../io/terminal/types.ts';
import { makeTempDir, waitForEvent } from '../helpers/temp.ts';
import { mockSpec, waitForReading } from './mock-worker.ts';

describe('tmux host after its server was killed', () => {
  let host: TmuxHost | null = null;
  let cleanup: (() => void) | null = null;
  afterEach(async () => {
    await host?.killServer().catch(() => {});
    cleanup?.();
    host = null;
    cleanup = null;
  });

  it('a pane created after the server was killed is alive, never reported exited, and its output is pushed', async () => {
    const d = makeTempDir('tmux-killed');
    cleanup = d.cleanup;
    const socket = join(d.path, 'state', 'tmux.sock');
    host = createTmuxHost({ socketPath: socket });
    const h = host;
    const before = await h.createPane(mockSpec({ name: 'before1', dir: d.path }));
    await waitForReading(h, before.paneId, (r) => r.promptBox === '', 'before1 at its empty box');
    const exited = waitForEvent<PaneEvent>((l) => h.subscribe(before.paneId, l), (e) => e.type === 'exited', { what: 'before1 reported exited when the server died', timeoutMs: 15_000 });
    // Killed from outside, the way a person (or an OOM kill) ends it.
    execFileSync('tmux', ['-S', socket, 'kill-server']);
    await exited;

    const after = await h.createPane(mockSpec({ name: 'after1', dir: d.path }));
    // The new server reuses the dead server's numbering: the case this rule is about.
    expect(after.paneId).toBe(before.paneId);
    expect(after.alive).toBe(true);
    const events: PaneEvent[] = [];
    const unsubscribe = h.subscribe(after.paneId, (e) => events.push(e));
    // Output of the new pane reaches us as pushed `changed` events (a monitor client on the new server).
    await waitForReading(h, after.paneId, (r) => r.promptBox === '', 'after1 at its empty box');
    const changed = waitForEvent<PaneEvent>((l) => h.subscribe(after.paneId, l), (e) => e.type === 'changed', { what: 'a pushed change from after1 after typing into it' });
    await h.typeText(after.paneId, 'x');
    await changed;
    unsubscribe();
    expect(events.filter((e) => e.type === 'exited')).toEqual([]);
    const listed = await h.list();
    expect(listed.ok && listed.panes.find((p) => p.name === 'after1')?.alive).toBe(true);
  });
});
