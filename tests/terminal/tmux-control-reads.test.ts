/**
 * Screen reads go over the control-mode connection the host already holds, with the spawned
 * tmux command as the fallback: both give the same screen, and a failed read (tmux's `%error`)
 * is an error, never a screen made of error text.
 */
import { describe, expect, it } from 'vitest';
import type { TmuxHost } from '../../io/terminal/tmux/tmux-host.ts';
import { screenText, waitForExit, waitForReading } from './mock-worker.ts';
import { useCleanups } from '../helpers/cleanups.ts';
import { tmuxInTempDir } from './tmux-in-temp-dir.ts';

describe('tmux reads over control mode', () => {
  const defer = useCleanups();

  function fresh(label: string): { host: TmuxHost; dir: string } {
    return tmuxInTempDir(defer, label);
  }

  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color' };

  it('a read of a pane that does not exist fails with tmux\'s message, whether a control client is up or not', async () => {
    const { host, dir } = fresh('tmux-read-missing');
    await host.createPane({ name: 'holder', cwd: dir, env, argv: ['cat'] }); // a control client is up
    const overControl = await host.readVisible('%9999');
    expect(overControl).toEqual({ ok: false, error: expect.stringMatching(/can't find pane/) });
    await host.dispose(); // no control client any more: the spawned command answers
    const bySpawn = await host.readVisible('%9999');
    expect(bySpawn).toEqual({ ok: false, error: expect.stringMatching(/can't find pane/) });
  });

  it('the control-mode read and the spawned read see the same screen, colours and size included', async () => {
    const { host, dir } = fresh('tmux-read-same');
    const pane = await host.createPane({ name: 'printer', cwd: dir, env, cols: 110, rows: 30, argv: ['cat'] });
    await host.sendText(pane.paneId, 'héllo 漢字 wide');
    const seen = await waitForReading(host, pane.paneId, (_r, s) => screenText(s).split('\n').filter((l) => l === 'héllo 漢字 wide').length === 2, 'cat echoing unicode');
    expect(seen.screen.cols).toBe(110);
    expect(seen.screen.rows).toBe(30);
    const live = await host.readVisible(pane.paneId);
    await host.dispose();
    const spawned = await host.readVisible(pane.paneId);
    expect(live.ok && spawned.ok).toBe(true);
    expect(live.ok && live.screen).toEqual(spawned.ok && spawned.screen);
  });

  it('an exit without any output before it is still reported with its status', async () => {
    const { host, dir } = fresh('tmux-quiet-exit');
    const pane = await host.createPane({ name: 'quiet', cwd: dir, env, argv: ['sh', '-c', 'sleep 1; exit 5'] });
    expect(await waitForExit(host, pane.paneId, 'the quiet worker exiting with 5')).toBe(5);
  });
});
