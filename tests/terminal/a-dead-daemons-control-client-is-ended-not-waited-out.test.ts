/**
 * Issue 26: a daemon killed in the middle of a burst of commands (a resume's reads and hooks)
 * leaves its tmux control client attached to the monitor session for seconds, and the next
 * daemon waited for it to leave the whole 3 s bound before it connected (it must not connect
 * while one leaves: tmux 3.3a can crash). A client still there after a moment is now ended.
 * Here the dead daemon's client is a real `tmux -C` whose stdout nobody reads, sent a flood.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { awaitNoControlClients, ensureMonitorSession } from '../../io/terminal/tmux/monitor-session.ts';
import { runTmux } from '../../io/terminal/tmux/tmux-command.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { useCleanups } from '../helpers/cleanups.ts';

describe("a dead daemon's control client", () => {
  const defer = useCleanups();

  it('still attached after a moment is ended, and the wait returns long before its bound', async () => {
    const d = makeTempDir('tmux-leftover-client');
    defer(d.cleanup);
    const ctx = { bin: 'tmux', socketPath: join(d.path, 'tmux.sock') };
    defer(() => runTmux(ctx, ['kill-server']).then(() => {}, () => {}));
    const sessionId = await ensureMonitorSession(ctx, '/usr/bin/env');
    const stuck = spawn('tmux', ['-S', ctx.socketPath, '-C', 'attach-session', '-t', sessionId], { stdio: ['pipe', 'pipe', 'ignore'] });
    defer(() => void stuck.kill('SIGKILL'));
    // Its replies are never read: the pipe fills and the client stops reading what it is sent.
    stuck.stdout.pause();
    stuck.stdin.write(`${'capture-pane -p -e -S -2000\n'.repeat(4000)}`);
    const attached = async () => (await runTmux(ctx, ['list-clients', '-F', '#{client_control_mode}'])).split('\n').includes('1');
    const deadline = Date.now() + 5_000;
    while (!(await attached())) {
      if (Date.now() > deadline) throw new Error('the leftover control client never attached');
      await new Promise((r) => setTimeout(r, 20));
    }
    const t0 = Date.now();
    expect(await awaitNoControlClients(ctx, sessionId, 3_000), 'no control client left on the monitor session').toBe(true);
    expect(Date.now() - t0, 'ms waited for the leftover client').toBeLessThan(2_000);
    expect(await attached()).toBe(false);
  });
});
