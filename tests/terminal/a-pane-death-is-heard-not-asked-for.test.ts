/**
 * Issue 26: a streaming pane used to be asked `#{pane_dead}` after every spinner frame (its
 * output goes quiet for 100 ms between frames), about ten control commands a second per working
 * agent, only to notice an exit. Each pane now has a `pane-died` hook that types its id into the
 * monitor's placeholder, whose echo the control client hears (io/terminal/tmux/death-echo.ts).
 * On a real tmux server with the mock agent: nothing is asked while it streams, and a death in
 * the middle of the stream is heard from the echo, with its status.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { guardedSendText } from '../../io/terminal/guarded-send.ts';
import { createTmuxHost } from '../../io/terminal/tmux/tmux-host.ts';
import type { PaneEvent } from '../../io/terminal/types.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { startMock, waitForReading } from './mock-worker.ts';

/** Resolves after `count` more events of the pane accepted by `accept`, bounded, naming what it awaited. */
function nextEvents(host: ReturnType<typeof createTmuxHost>, paneId: string, accept: (e: PaneEvent) => boolean, count: number, what: string, timeoutMs = 10_000): Promise<PaneEvent[]> {
  return new Promise((resolve, reject) => {
    const seen: PaneEvent[] = [];
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what} (saw ${seen.length} of ${count})`));
    }, timeoutMs);
    const off = host.subscribe(paneId, (e) => {
      if (!accept(e) || seen.push(e) < count) return;
      clearTimeout(timer);
      off();
      resolve(seen);
    });
  });
}

describe('a pane death is heard from its hook, not asked for', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('a streaming pane is never asked whether it died, and its death mid-stream arrives from the echo with its status', async () => {
    const d = makeTempDir('tmux-death-echo');
    cleanups.push(d.cleanup);
    const host = createTmuxHost({ socketPath: join(d.path, 'tmux.sock') });
    cleanups.push(() => host.killServer().catch(() => {}));
    const { pane } = await startMock(host, { name: 'streamer', dir: d.path });

    await guardedSendText(host, pane.paneId, 'MODE:slow keep the spinner going');
    await waitForReading(host, pane.paneId, (r) => r.state === 'working', 'the working spinner');
    const before = host.exitChecks();
    // Ten spinner frames (a second at the mock's 100 ms tick): each used to be followed by an ask.
    await nextEvents(host, pane.paneId, (e) => e.type === 'changed', 10, 'ten redraws of the spinner');
    expect(host.exitChecks().asked - before.asked, 'pane_dead asked while the pane streamed').toBe(0);

    const listed = await host.list();
    const pid = listed.ok ? listed.panes.find((p) => p.paneId === pane.paneId)?.pid : undefined;
    expect(pid, 'the mock agent pid from the pane list').toBeTypeOf('number');
    const exited = nextEvents(host, pane.paneId, (e) => e.type === 'exited', 1, 'the exit of the killed agent');
    process.kill(pid!, 'SIGKILL');
    const [exit] = await exited;
    expect(exit).toEqual({ type: 'exited', code: 128 + 9 });
    expect(host.exitChecks().echoed - before.echoed, 'deaths heard from the placeholder echo').toBe(1);
    expect(host.exitChecks().asked - before.asked, 'pane_dead asked after quiet output').toBe(0);
  });
});
