/**
 * The tmux server survives many workers created at once. The bench lost its server twice while
 * dispatching a fleet in parallel ("server exited unexpectedly", at ~10 and ~76 windows); this
 * creates 30 panes concurrently through one host — each with its own control client attaching
 * while the others are being made — and checks the server is still up and lists every pane.
 */
import { describe, expect, it } from 'vitest';
import { screenText, waitForReading } from './mock-worker.ts';
import { useCleanups } from '../helpers/cleanups.ts';
import { tmuxInTempDir } from './tmux-in-temp-dir.ts';

const PANES = 30;

describe('tmux host under a parallel dispatch', () => {
  const defer = useCleanups();

  it(`creating ${PANES} panes at once keeps the server up and lists every pane, each readable over control mode`, async () => {
    const { dir, host } = tmuxInTempDir(defer, 'tmux-parallel');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color' };

    const created = await Promise.all(
      Array.from({ length: PANES }, (_, i) => host.createPane({ name: `parallel-${i}`, cwd: dir, env, argv: ['cat'] })),
    );

    expect(await host.serverState()).toEqual({ state: 'running' });
    const listed = await host.list();
    expect(listed.ok).toBe(true);
    const ids = listed.ok ? listed.panes.map((p) => p.paneId).sort() : [];
    expect(ids).toEqual(created.map((p) => p.paneId).sort());
    expect(listed.ok && listed.panes.every((p) => p.alive === true)).toBe(true);

    // Every pane can still be steered and read back (reads go over the control clients).
    await Promise.all(created.map((p, i) => host.sendText(p.paneId, `hello ${i}`)));
    await Promise.all(
      created.map((p, i) =>
        waitForReading(host, p.paneId, (_r, s) => screenText(s).split('\n').filter((l) => l === `hello ${i}`).length === 2, `cat in pane ${i} echoing its text`),
      ),
    );
    expect(await host.serverState()).toEqual({ state: 'running' });
  }, 120_000);
});
