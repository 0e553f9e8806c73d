/**
 * Issue 25 #4: `hand daemon stop` works on an immutable state directory — the socket is enough.
 * Before, every command checked that the home was writable first, so stop refused with "chmod
 * 700" advice and the daemon could not be stopped. The real binary: the point is its home check.
 * Skipped with the reason where `chattr +i` is refused (not root, or a file system without it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { makeTempDir, waitFor } from '../helpers/temp.ts';
import { envWithoutHandHome, handRunner, startDaemon, stopInstallation, type HandRunner } from '../helpers/hand-process.ts';
import { isProcessAlive } from '../helpers/processes.ts';

let tmp: ReturnType<typeof makeTempDir>;
let home: string;
let hand: HandRunner;
let pid = 0;
let skipWhy: string | null = null;
const chattr = (flag: string) => execFileSync('chattr', [flag, home], { stdio: 'pipe' });

beforeAll(async () => {
  tmp = makeTempDir('immutable-home');
  home = join(tmp.path, 'state');
  hand = handRunner(home, envWithoutHandHome(), 30_000);
  pid = await startDaemon(hand);
  try {
    chattr('+i');
  } catch (err) {
    skipWhy = `chattr +i is refused here: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`;
  }
}, 60_000);
afterAll(async () => {
  // the flag first: the cleanup must be able to remove the socket and the temp dir
  if (!skipWhy) chattr('-i');
  await stopInstallation(hand, home, 15_000);
  tmp.cleanup();
}, 60_000);

describe('daemon stop works on an immutable home', () => {
  it('status answers and stop stops the daemon, with no chmod advice', async (ctx) => {
    if (skipWhy) return ctx.skip(skipWhy);
    const status = await hand(['daemon', 'status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.json.pid).toBe(pid);
    const stop = await hand(['daemon', 'stop', '--json']);
    expect(stop.stderr).not.toContain('chmod');
    expect(stop.code, stop.stderr).toBe(0);
    await waitFor(() => !isProcessAlive(pid), { what: `daemon pid ${pid} to exit after daemon stop`, timeoutMs: 20_000 });
  }, 60_000);
});
