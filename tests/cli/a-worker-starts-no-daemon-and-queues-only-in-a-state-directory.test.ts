/**
 * Rule: a worker's environment never starts kingshand's daemon, and a hook queues only in a
 * kingshand state directory (issue 43). A plain `hand` run by a worker outside a sandbox started a
 * second daemon and tmux server under the person's home and left them running; `hand hook` with
 * any HAND_HOME wrote a queue file there. The real binary, with a worker's HAND_WORKER_ID.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { handRunner, envWithoutHandHome } from '../helpers/hand-process.ts';
import { makeTempDir } from '../helpers/temp.ts';

let tmp: ReturnType<typeof makeTempDir> | undefined;
afterEach(() => tmp?.cleanup());

describe("a worker's environment", () => {
  it('refuses to start a daemon, naming why; nothing is made in the home it was pointed at', async () => {
    tmp = makeTempDir('worker-no-daemon');
    const home = join(tmp.path, 'persons-home', '.local', 'state', 'kingshand');
    const hand = handRunner(home, { ...envWithoutHandHome(), HAND_WORKER_ID: 'w1' }, 20_000);
    const r = await hand(['status', '--json']);
    expect(r.code).toBe(3);
    expect(r.stdout + r.stderr).toContain("this is a worker's environment (HAND_WORKER_ID=w1): a worker does not start kingshand's daemon");
    expect(existsSync(join(home, 'hand.sock')), 'no daemon socket').toBe(false);
    expect(existsSync(join(home, 'daemon.lock')), 'no daemon lock').toBe(false);
  });

  it('hand hook with a HAND_HOME that is no state directory writes nothing there', async () => {
    tmp = makeTempDir('hook-no-queue');
    const elsewhere = join(tmp.path, 'elsewhere');
    mkdirSync(elsewhere);
    const hand = handRunner(elsewhere, { ...envWithoutHandHome(), HAND_WORKER_ID: 'w1', HAND_HOOK_CAP: 'x'.repeat(32) }, 20_000);
    const r = await hand(['hook', 'Stop', '{}', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ delivered: false, queued: false });
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
