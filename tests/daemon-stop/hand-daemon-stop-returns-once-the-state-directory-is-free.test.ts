/**
 * Rule: `hand daemon stop` answers only once the daemon has let go of the state directory. It
 * used to answer when the daemon said "stopping", while the daemon still stopped its fleet,
 * its terminal server's client and its lock; the next command on the same home could meet the
 * lock (a restore-db refused `daemon-running` 44 ms after a stop, in a loaded run). Here the
 * daemon is its own process with a live worker to leave running, and the lock is probed from
 * outside the moment the stop returns.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { homeLockHeld } from '../../persistence/lock-probe.ts';
import { dispatchSettled, useCliWorld } from '../helpers/cli-world.ts';

const makeWorld = useCliWorld({ daemonProcess: true });

describe('hand daemon stop returns once the state directory is free', () => {
  it('with a live worker left running: no lock, no pid file the moment the stop returns; the next start takes the home', async () => {
    const w = await makeWorld('daemon-stop-free');
    await dispatchSettled(w, 's1', 'Say hi.');
    const r = await w.hand(['daemon', 'stop', '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(homeLockHeld(w.home), 'the lock still held after stop returned').toBe(false);
    expect(existsSync(join(w.home, 'daemon.pid'))).toBe(false);
    // The next command on the same home starts a daemon of its own, which re-attaches the worker.
    const s = await w.hand(['stop', 's1', '--json']);
    expect(s.code, s.stdout + s.stderr).toBe(0);
  });
});
