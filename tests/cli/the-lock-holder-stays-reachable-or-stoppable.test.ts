/**
 * The daemon that holds a state directory is always reachable or stoppable. Before: deleting
 * hand.sock under a running daemon made `daemon stop`/`status` say "no daemon is running" while
 * every other command was refused because "another daemon (pid N) holds" the home, and nothing
 * could stop it. Now the daemon listens again on a lost socket, status names a silent lock
 * holder, and `daemon stop` signals the pid that holds the lock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, waitFor } from '../helpers/temp.ts';
import { envWithoutHandHome, handRunner, startDaemon, stopInstallation, type HandRunner } from '../helpers/hand-process.ts';
import { isProcessAlive } from '../helpers/processes.ts';

let tmp: ReturnType<typeof makeTempDir>;
let home: string;
let socket: string;
let hand: HandRunner;
let pid = 0;
beforeAll(async () => {
  tmp = makeTempDir('lock-holder');
  home = join(tmp.path, 'state');
  socket = join(home, 'hand.sock');
  hand = handRunner(home, envWithoutHandHome(), 60_000);
  pid = await startDaemon(hand);
}, 60_000);
afterAll(async () => {
  if (pid && isProcessAlive(pid)) process.kill(pid, 'SIGCONT');
  await stopInstallation(hand, home, 15_000);
  tmp.cleanup();
});

/** True when SIGTERM is pending for `p` (Linux: the shared pending mask in /proc). */
function sigtermPending(p: number): boolean {
  const line = readFileSync(`/proc/${p}/status`, 'utf8').split('\n').find((l) => l.startsWith('ShdPnd:'));
  return line !== undefined && (BigInt(`0x${line.split(/\s+/)[1]}`) & 0x4000n) !== 0n;
}

describe('the lock holder stays reachable or stoppable', () => {
  it('a deleted socket is listened on again: status and other commands reach the same daemon', async () => {
    rmSync(socket);
    await waitFor(() => existsSync(socket), { what: 'the daemon to listen again on hand.sock', timeoutMs: 10_000 });
    const status = await hand(['daemon', 'status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.json.pid).toBe(pid);
    expect((await hand(['projects'])).code).toBe(0);
  });

  it('a holder that does not answer is named by status and stopped by daemon stop (SIGTERM to the lock pid)', async () => {
    process.kill(pid, 'SIGSTOP'); // cannot answer and cannot re-create its socket
    rmSync(socket);
    const status = await hand(['daemon', 'status']);
    expect(status.code).toBe(3);
    expect(status.stderr).toContain(`a daemon (pid ${pid}) holds ${home} but does not answer`);
    expect(status.stderr).not.toMatch(/no daemon is running/);
    const stopping = hand(['daemon', 'stop', '--json']);
    await waitFor(() => sigtermPending(pid), { what: 'daemon stop to send SIGTERM to the lock holder', timeoutMs: 20_000 });
    process.kill(pid, 'SIGCONT');
    const stop = await stopping;
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.json).toMatchObject({ pid, signalled: 'SIGTERM' });
    expect(isProcessAlive(pid)).toBe(false);
  }, 60_000);
});
