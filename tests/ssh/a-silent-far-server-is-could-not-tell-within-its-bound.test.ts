/**
 * Rule: a far terminal server that does not answer within its bound — its tmux server stopped, or
 * the ssh connection to it gone — makes every worker on it "could not tell" (readable no, live
 * could not tell, with the reason), never a stall and never gone, and back to the live reading
 * once it answers (issue 38 item 8). The same rule as the local tmux server and herdr
 * (tests/faults/a-silent-terminal-server-is-could-not-tell-within-its-bound.test.ts), over a
 * real sshd and a second account (tests/harness/sshd.ts). The bound is 1 s here.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stopAfter } from '../harness/sshd.ts';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { addFarHost, placeShopOnFar, startFarShop, type FarShop } from '../harness/far-shop.ts';
import { until } from '../helpers/temp.ts';
import { expectEachCouldNotTell, waitOnStoppedServer } from '../helpers/stopped-server.ts';

const BOUND_MS = 1_000;
/** The bound, the watch's resolution (a quarter bound) and room for a loaded 2-core machine. */
const SEEN_WITHIN_MS = BOUND_MS + BOUND_MS / 4 + 2_500;

interface Row { id: string; condition: string; state: string; readable: boolean; live: boolean | null; couldNotTell: string | null }

describe('a silent far server is could-not-tell within its bound, and back when it answers', () => {
  let far: FarShop;
  let w: CliWorld;
  let stopped: number | null = null;
  const rows = async (): Promise<Row[]> => {
    const r = await w.hand(['status', '--json']);
    expect(r.code, r.stderr).toBe(0);
    // A row without the field (a daemon before issue 38) reads as one that has nothing to say.
  return (r.json as Row[]).map((row) => ({ ...row, couldNotTell: row.couldNotTell ?? null })).sort((a, b) => a.id.localeCompare(b.id));
  };
  const live = () => until('both far workers read live again', rows, (rs) => rs.every((r) => r.readable && r.live === true && r.couldNotTell === null), 20_000);

  beforeAll(async () => {
    far = await startFarShop();
    w = await makeCliWorld('far-silent', { env: { HAND_SERVER_ANSWER_MS: String(BOUND_MS) } });
    await addFarHost(w, far);
    await placeShopOnFar(w, far);
    for (const [id, task] of [['busy1', 'MODE:hang keep going'], ['rest1', 'Say hello.']]) {
      const r = await w.hand(['dispatch', id!, '--repo', w.repo, '--brief', w.brief(id!, task!), '--agent', 'mock', '--json']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
    }
    expect((await w.hand(['wait', 'rest1', '--until', 'settled', '--timeout', '30s', '--json'])).code).toBe(0);
    await until('busy1 at work on a readable screen', rows, (rs) => rs.some((r) => r.id === 'busy1' && r.state === 'working' && r.readable), 30_000);
  }, 120_000);
  afterEach(async () => {
    if (stopped !== null) process.kill(stopped, 'SIGCONT');
    stopped = null;
    await far?.sshd.startServer();
  });
  afterAll(() => stopAfter(w, far?.sshd));

  it('the far tmux server SIGSTOPped: could not tell with the reason, within the bound; SIGCONT: the live reading', async () => {
    const socket = join(far.sshd.home, '.kingshand', 'tmux', 'tmux.sock');
    const pid = Number(execFileSync('runuser', ['-u', far.sshd.user, '--', 'tmux', '-S', socket, '-f', '/dev/null', 'display-message', '-p', '#{pid}'], { encoding: 'utf8' }).trim());
    const { waited, seenAfter } = await waitOnStoppedServer(w, pid, 'busy1', (p) => (stopped = p));
    expect(waited.json).toMatchObject({ reason: 'wait-failed', met: false, readable: false, couldNotTell: 'the tmux server on far did not answer within 1 s' });
    expect(seenAfter, `seen ${seenAfter} ms after the stop`).toBeLessThan(SEEN_WITHIN_MS);
    expectEachCouldNotTell(await rows(), ['busy1', 'rest1'], 'the tmux server on far did not answer within 1 s');
    process.kill(pid, 'SIGCONT');
    stopped = null;
    const back = await live();
    expect(back.map((r) => [r.id, r.condition, r.state])).toEqual([['busy1', 'busy', 'working'], ['rest1', 'settled', 'idle']]);
  }, 60_000);

  it('the ssh connection gone (sshd stopped, its connections dropped): could not tell with the reason; sshd back: the live reading', async () => {
    const t0 = Date.now();
    await far.sshd.stopServer();
    await far.sshd.dropConnections();
    const waited = await w.hand(['wait', 'busy1', '--until', 'settled', '--timeout', '20s', '--json']);
    const seenAfter = Date.now() - t0;
    expect(waited.json).toMatchObject({ reason: 'wait-failed', met: false, readable: false });
    expect(seenAfter, `seen ${seenAfter} ms after the connection went`).toBeLessThan(SEEN_WITHIN_MS);
    const silent = await until('every far worker could not tell, with the reason', rows, (rs) => rs.every((r) => r.couldNotTell !== null), 5_000);
    for (const r of silent) {
      expect(r, r.id).toMatchObject({ readable: false, live: null });
      expect(r.couldNotTell, r.id).toMatch(/^the tmux server on far did not answer within 1 s/);
      expect(['stalled', 'gone'], r.id).not.toContain(r.condition);
    }
    await far.sshd.startServer();
    const back = await live();
    expect(back.map((r) => [r.id, r.state])).toEqual([['busy1', 'working'], ['rest1', 'idle']]);
    expect(back.map((r) => r.condition).filter((c) => ['stalled', 'gone'].includes(c))).toEqual([]);
  }, 60_000);
});
