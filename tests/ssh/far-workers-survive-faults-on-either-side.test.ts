/**
 * Far workers through the faults of issue 28, against a real sshd and a second account: a daemon
 * SIGKILLed and started again re-attaches every far worker; the ssh master killed leaves every
 * worker in its state and the next command reconnects; sshd down mid-turn is "could not tell",
 * never gone, and the turn is seen to end once sshd is back; a far tmux server that restarted
 * while no daemon watched is told by its pid and start time, so its reused pane ids are never
 * taken for the old panes, and workers dispatched afterwards live.
 *
 * The outage lasts KH_TEST_SSH_OUTAGE_MS (default 4 s; the 20 s is the same rule — no
 * bound in the daemon is between them: reads fail open at once, the control client retries
 * every 3 s, a pane that cannot be seen is looked for every 15 s). The slow turn is half the
 * outage, so it ends unseen and only the re-read after the reconnect can tell it ended.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopAfter } from '../harness/sshd.ts';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { killDaemon } from '../faults/fault-world.ts';
import { addFarHost, placeShopOnFar, startFarShop, type FarShop } from '../harness/far-shop.ts';
import { waitFor } from '../helpers/temp.ts';

const OUTAGE_MS = Number(process.env.KH_TEST_SSH_OUTAGE_MS ?? 4_000);

interface Row { id: string; stage: string; condition: string; live: boolean | null; host: string }

describe('far workers through faults', () => {
  let far: FarShop;
  let w: CliWorld;
  const ok = async (args: string[], env?: Record<string, string>) => {
    const r = await w.hand([...args, '--json'], env ? { env } : {});
    expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
    return r.json;
  };
  /** Status rows by id (w1 and w2 were dispatched at once: their creation order is not fixed). */
  const rows = async (): Promise<Row[]> => ((await ok(['status'])) as Row[]).sort((a, b) => a.id.localeCompare(b.id));
  const settled = (id: string) => ok(['wait', id, '--until', 'settled', '--timeout', '30s']);
  /** The far account's tmux, run as that account (its server refuses other users). */
  const farTmux = (...args: string[]) =>
    execFileSync('runuser', ['-u', far.sshd.user, '--', 'tmux', '-S', join(far.sshd.home, '.kingshand', 'tmux', 'tmux.sock'), '-f', '/dev/null', ...args], { encoding: 'utf8' });

  beforeAll(async () => {
    far = await startFarShop();
    // The daemon as its own process: it is SIGKILLed below.
    w = await makeCliWorld('far-faults', { daemonProcess: true });
    await addFarHost(w, far);
    await placeShopOnFar(w, far);
    // Both at once into one far repository (its worktree steps take turns, as locally). w1's slow
    // turn ends while the host cannot be reached: its end is only seen once sshd is back.
    await Promise.all([
      ok(['dispatch', 'w1', '--repo', w.repo, '--brief', w.brief('w1', 'Say hello.'), '--agent', 'mock'], { KH_MOCK_SLOW_MS: String(Math.round(OUTAGE_MS / 2)) }),
      ok(['dispatch', 'w2', '--repo', w.repo, '--brief', w.brief('w2', 'Say hello.'), '--agent', 'mock']),
    ]);
    await Promise.all([settled('w1'), settled('w2')]);
  }, 90_000);
  afterAll(() => stopAfter(w, far?.sshd));

  it('a daemon SIGKILLed and started again re-attaches every far worker', async () => {
    await killDaemon(w);
    // The next command starts a daemon, which restores both and re-attaches their far panes.
    const after = await rows();
    expect(after.map((r) => [r.id, r.host, r.condition, r.live])).toEqual([['w1', 'far', 'settled', true], ['w2', 'far', 'settled', true]]);
    await ok(['send', 'w2', 'Say hello again.']);
    await settled('w2');
    expect((await ok(['read', 'w2'])).text).toContain('Say hello again.');
  }, 60_000);

  it('the ssh master killed: every worker keeps its state, and the next command reconnects', async () => {
    const masters = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
      .split('\n')
      .filter((l) => l.includes(`${join(w.home, 'ssh')}/cm-`) && l.includes('[mux]'));
    expect(masters).toHaveLength(1);
    process.kill(Number(masters[0]!.trim().split(/\s+/)[0]), 'SIGKILL');
    expect((await rows()).map((r) => r.condition)).toEqual(['settled', 'settled']);
    await ok(['send', 'w2', 'After the master.']);
    await settled('w2');
    expect((await ok(['read', 'w2'])).text).toContain('After the master.');
  }, 60_000);

  it(`sshd down ${OUTAGE_MS} ms mid-turn: never reported gone, and the turn is seen to end once sshd is back`, async () => {
    await ok(['send', 'w1', 'MODE:slow take your time']);
    await waitFor(async () => (await rows()).find((r) => r.id === 'w1')!.condition === 'busy', { what: 'w1 working on its slow turn', timeoutMs: 10_000 });
    await far.sshd.stopServer();
    await far.sshd.dropConnections();
    const seen = new Set<string>();
    const until = Date.now() + OUTAGE_MS;
    while (Date.now() < until) {
      for (const r of await rows()) seen.add(`${r.id}:${r.condition}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect([...seen].filter((s) => s.endsWith(':gone'))).toEqual([]);
    await far.sshd.startServer();
    // Until the control client is back (it retries every 3 s), w1 may be "could not tell" — from
    // the moment its host has been quiet for 5 s, which can fall before or after sshd is back — and
    // a wait then says so at once (wait-failed), as it must: the person asks again, and so does
    // this test, until a wait sees the turn's end.
    await waitFor(async () => {
      const r = await w.hand(['wait', 'w1', '--until', 'settled', '--timeout', '5s', '--json']);
      const out = r.json as { met?: boolean; reason?: string } | null;
      if (r.code === 0 && out?.met) return true;
      if (out?.reason === 'wait-failed') return false;
      throw new Error(`wait w1 --until settled: neither met nor could-not-tell: ${r.stdout}${r.stderr}`);
    }, { what: 'a wait on w1 that sees its turn end once sshd is back', timeoutMs: 30_000, intervalMs: 250 });
    // The turn's end can be read (a one-off read over a fresh ssh connection) before the host's
    // control client is back and its silence lifted (5 s quiet can fall just after sshd is back):
    // live is "could not tell" until then, never false, and true once the client is back.
    const settledLive = (list: Awaited<ReturnType<typeof rows>>) => list.map((r) => [r.id, r.condition, r.live]);
    for (const r of await rows()) expect(r.live, `${r.id} is never read as not live`).not.toBe(false);
    await waitFor(async () => JSON.stringify(settledLive(await rows())) === JSON.stringify([['w1', 'settled', true], ['w2', 'settled', true]]), {
      what: 'both far workers settled and live once the control client is back', timeoutMs: 15_000, intervalMs: 250,
    });
  }, 60_000);

  it('a far tmux server that restarted while no daemon watched: its reused pane ids are never taken for the old panes', async () => {
    await killDaemon(w);
    farTmux('kill-server');
    // kill-server answers before the server has gone; a client in that moment is told "server exited unexpectedly".
    await waitFor(() => {
      try {
        farTmux('list-sessions');
        return false;
      } catch (err) {
        return /no server running|error connecting/.test(String((err as { stderr?: unknown }).stderr));
      }
    }, { what: 'the far tmux server gone after kill-server' });
    // A new server numbers its panes from %0 again: eight of a stranger's panes take every id
    // the old server gave (its monitor placeholder, w1's and w2's among them).
    farTmux('new-session', '-d', '-s', 'intruder', 'sleep 600');
    for (let i = 1; i < 8; i++) farTmux('new-window', '-d', '-t', 'intruder', 'sleep 600');
    expect(farTmux('list-panes', '-a', '-F', '#{pane_id}').trim().split('\n')).toEqual(['%0', '%1', '%2', '%3', '%4', '%5', '%6', '%7']);
    const after = await rows();
    expect(after.map((r) => [r.id, r.condition])).toEqual([['w1', 'gone'], ['w2', 'gone']]);
    // Nothing was sent into the stranger's panes, and they still run.
    expect(farTmux('list-panes', '-a', '-F', '#{session_name} #{pane_dead}').trim().split('\n')).toEqual(Array(8).fill('intruder 0'));
    await ok(['dispatch', 'w3', '--repo', w.repo, '--brief', w.brief('w3', 'Say hello.'), '--agent', 'mock']);
    await settled('w3');
    expect((await rows()).find((r) => r.id === 'w3')).toMatchObject({ condition: 'settled', live: true, host: 'far' });
  }, 60_000);
});
