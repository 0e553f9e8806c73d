/**
 * The suite's cleanup ends a tmux server and waits for its panes' processes: the server's end hangs
 * them up, which ends nearly everything — not a process that holds SIGHUP blocked or ignores it (a
 * bubblewrap whose child died during its setup waited so, and outlived a run's cleanup). Such a
 * process is killed once the hang-up has had its time, and the cleanup says so; it never fails
 * the run's cleanup or stays behind.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { endTerminalServer, exitedOrGone, isProcessAlive } from '../helpers/processes.ts';
import { makeTempDir, waitFor } from '../helpers/temp.ts';

const tmp = makeTempDir('hang-up');
afterAll(() => tmp.cleanup());

describe('ending a terminal server', () => {
  it('kills a pane process that ignores the hang-up, says so, and leaves nothing running', async () => {
    const socket = join(tmp.path, 'tmux.sock');
    const ready = join(tmp.path, 'ready');
    // A pane whose program ignores SIGHUP, and says so once its handler is in place.
    const program = `process.on('SIGHUP', () => {}); require('fs').writeFileSync(${JSON.stringify(ready)}, ''); setInterval(() => {}, 1000);`;
    execFileSync('tmux', ['-S', socket, '-f', '/dev/null', 'new-session', '-d', '-x', '80', '-y', '24', process.execPath, '-e', program]);
    const pid = Number(execFileSync('tmux', ['-S', socket, 'display-message', '-p', '-t', '%0', '#{pane_pid}'], { encoding: 'utf8' }).trim());
    await waitFor(() => existsSync(ready), { what: 'the pane program to ignore SIGHUP', timeoutMs: 10_000 });

    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const ended = await endTerminalServer(socket);
      expect(ended).toContain(pid);
      expect(isProcessAlive(pid) && !exitedOrGone(pid), `pane process ${pid} still runs`).toBe(false);
      expect(warn.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(new RegExp(`outlived its hang-up .* killed: ${pid} \\(node\\)`));
    } finally {
      warn.mockRestore();
    }
  }, 30_000);
});
