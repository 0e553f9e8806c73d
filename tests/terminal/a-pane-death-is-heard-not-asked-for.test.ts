/**
 * Issue 26: a streaming pane used to be asked `#{pane_dead}` after every spinner frame (its
 * output goes quiet for 100 ms between frames), about ten control commands a second per working
 * agent, only to notice an exit. A pane drawing at a steady pace is now asked only when a pause
 * is longer than its pace; and each pane has a `pane-died` hook that types its id into the
 * monitor's placeholder, whose echo the control client hears (io/terminal/tmux/death-echo.ts).
 * On a real tmux server with the mock agent.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardedSendText } from '../../io/terminal/guarded-send.ts';
import { createTmuxHost } from '../../io/terminal/tmux/tmux-host.ts';
import type { PaneEvent } from '../../io/terminal/types.ts';
import { startMock, waitForReading } from './mock-worker.ts';
import { useCleanups } from '../helpers/cleanups.ts';
import { tmuxInTempDir } from './tmux-in-temp-dir.ts';

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
  const defer = useCleanups();

  it('a pane streaming at a steady pace is not asked whether it died, and its death mid-stream is still reported with its status', async () => {
    const { dir, host } = tmuxInTempDir(defer, 'tmux-death-echo');
    const { pane } = await startMock(host, { name: 'streamer', dir });

    await guardedSendText(host, pane.paneId, 'MODE:hang keep the spinner going');
    await waitForReading(host, pane.paneId, (r) => r.state === 'working', 'the working spinner');
    // About three seconds of spinner frames (the mock's 100 ms tick) make the pace steady.
    await nextEvents(host, pane.paneId, (e) => e.type === 'changed', 30, 'thirty redraws of the spinner');
    const before = host.exitChecks();
    // Ten more frames: each used to be followed by an ask, 60 ms into the 100 ms pause.
    await nextEvents(host, pane.paneId, (e) => e.type === 'changed', 10, 'ten more redraws of the spinner');
    expect(host.exitChecks().asked - before.asked, 'pane_dead asked while the pane streamed at its pace').toBeLessThanOrEqual(1);
    // Nor does its probe timer wake after every frame to find the next one came: at most every
    // 250 ms while the pace holds (it woke ten times in these ten frames before).
    expect(host.exitChecks().looked - before.looked, 'probe timer wakes during ten frames at a steady pace').toBeLessThanOrEqual(6);

    const listed = await host.list();
    const pid = listed.ok ? listed.panes.find((p) => p.paneId === pane.paneId)?.pid : undefined;
    expect(pid, 'the mock agent pid from the pane list').toBeTypeOf('number');
    const exited = nextEvents(host, pane.paneId, (e) => e.type === 'exited', 1, 'the exit of the killed agent');
    process.kill(pid!, 'SIGKILL');
    const [exit] = await exited;
    expect(exit).toEqual({ type: 'exited', code: 128 + 9 });
  });

  it('each pane has a pane-died hook, and a pane id the placeholder echoes is asked about at once', async () => {
    const { dir, host } = tmuxInTempDir(defer, 'tmux-death-echo-hook');
    const socket = join(dir, 'tmux.sock');
    const { pane } = await startMock(host, { name: 'hooked', dir });
    await waitForReading(host, pane.paneId, (r) => r.promptBox === '', 'the empty box');
    const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
    const placeholder = tmux('list-panes', '-a', '-F', '#{pane_id} #{@kh_monitor}').split('\n').find((l) => l.endsWith(' 1'))?.split(' ')[0];
    expect(placeholder, 'the monitor placeholder').toMatch(/^%\d+$/);
    const deadline = Date.now() + 5_000;
    while (!tmux('show-hooks', '-p', '-t', pane.paneId).includes('pane-died')) {
      if (Date.now() > deadline) throw new Error(`no pane-died hook on ${pane.paneId} after 5 s`);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(tmux('show-hooks', '-p', '-t', pane.paneId)).toContain(`send-keys -l -t "${placeholder}" "${pane.paneId} "`);
    // What the hook types when the pane dies, typed by hand: heard, asked, found alive.
    const before = host.exitChecks();
    tmux('send-keys', '-t', placeholder!, '-l', `${pane.paneId} `);
    tmux('send-keys', '-t', placeholder!, 'C-u');
    while (host.exitChecks().echoed === before.echoed) {
      if (Date.now() > deadline + 5_000) throw new Error('the echoed pane id was never heard');
      await new Promise((r) => setTimeout(r, 10));
    }
    expect((await host.list()).ok).toBe(true);
  });
});
