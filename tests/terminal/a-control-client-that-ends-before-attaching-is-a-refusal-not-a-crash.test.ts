/**
 * Rule: a tmux control client that ends before it attached (the server went away, the monitor
 * session vanished between its lookup and the attach) makes the connect fail with tmux's reason;
 * it never throws from the child's exit handler. Its close callback used to read the client's
 * binding before it existed ("Cannot access 'client' before initialization", seen uncaught while
 * the discard tests ran under load): an uncaught exception in the daemon's process.
 */
import { describe, expect, it } from 'vitest';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PaneWatchers } from '../../io/terminal/tmux/pane-watchers.ts';
import { PaneEventBus } from '../../io/terminal/pane-events.ts';
import { findEnvBin } from '../../io/terminal/pane-spec.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { execFileSync } from 'node:child_process';

describe('a control client that ends before attaching is a refusal, not a crash', () => {
  it('the connect rejects with the reason and nothing is thrown from the exit handler', async () => {
    const tmp = makeTempDir('control-ends-early');
    const socketPath = join(tmp.path, 'tmux.sock');
    // tmux itself for every command but the control client, which ends at once as if its
    // session had vanished under it.
    const bin = join(tmp.path, 'tmux-no-control');
    writeFileSync(bin, `#!/bin/sh\nfor a in "$@"; do [ "$a" = "-C" ] && { echo "can't find session: \\$0" >&2; exit 1; }; done\nexec tmux "$@"\n`);
    chmodSync(bin, 0o755);
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    const watchers = new PaneWatchers({ bin, socketPath }, new PaneEventBus(20), findEnvBin());
    try {
      await expect(watchers.ensureMonitor()).rejects.toThrow(/ended before attaching|could not attach|can't find session/);
      await new Promise((r) => setTimeout(r, 100));
      expect(uncaught.map(String)).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await watchers.dispose();
      try { execFileSync('tmux', ['-S', socketPath, 'kill-server'], { stdio: 'ignore' }); } catch { /* no server */ }
      tmp.cleanup();
    }
  });
});
