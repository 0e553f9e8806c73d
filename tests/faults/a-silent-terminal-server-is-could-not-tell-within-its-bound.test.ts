/**
 * Rule: a terminal server that does not answer within its bound makes every worker on it "could
 * not tell" (readable no, live could not tell, with the reason), never a stall and never gone, and
 * back to the live reading once it answers (issue 38 item 8). With the private tmux server
 * SIGSTOPped for 10 s, `hand status` kept "working · live yes · readable yes" from the last
 * reading: nothing was pushed, so nothing was read.
 *
 * A real daemon, tmux and mock workers; the bound is 1 s here (HAND_SERVER_ANSWER_MS), 5 s by
 * default. One worker at work (a spinner that never ends), one at rest. The server is stopped
 * with SIGSTOP and let go with SIGCONT; whatever fails, it is let go before the world is cleaned.
 */
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';
import { until } from '../helpers/temp.ts';
import { waitOnStoppedServer } from '../helpers/stopped-server.ts';
import { homePaths } from '../../contract/home.ts';
import type { CliWorld } from '../cli/cli-harness.ts';
import { makeHerdrDouble, type HerdrDouble } from '../doubles/herdr/fixture.ts';
import { createHerdrHost } from '../../io/terminal/herdr/herdr-host.ts';

const BOUND_MS = 1_000;
/** The bound, the watch's resolution (a quarter bound) and room for a loaded 2-core machine. */
const SEEN_WITHIN_MS = BOUND_MS + BOUND_MS / 4 + 2_000;

// After hooks run last-registered first: the server is let go, then the world (its daemon) is
// cleaned, then the herdr double's server is stopped.
const doubles: HerdrDouble[] = [];
afterEach(async () => {
  for (const d of doubles.splice(0)) await d.cleanup();
});
const makeWorld = useCliWorld();
let stopped: number | null = null;
afterEach(() => {
  if (stopped !== null) process.kill(stopped, 'SIGCONT');
  stopped = null;
});

interface Row { id: string; condition: string; state: string; readable: boolean; live: boolean | null; couldNotTell: string | null; stage: string }

async function rows(w: CliWorld): Promise<Row[]> {
  const r = await w.hand(['status', '--json']);
  expect(r.code, r.stderr).toBe(0);
  // A row without the field (a daemon before issue 38) reads as one that has nothing to say.
  return (r.json as Row[]).map((row) => ({ ...row, couldNotTell: row.couldNotTell ?? null })).sort((a, b) => a.id.localeCompare(b.id));
}

async function atWorkAndAtRest(w: CliWorld, extra: string[] = []): Promise<void> {
  expect((await w.hand(['annex', w.repo, '--yolo', '--json'])).code).toBe(0);
  for (const [id, task] of [['busy1', 'MODE:hang keep going'], ['rest1', 'Say hello.']]) {
    const r = await w.hand(['dispatch', id!, '--repo', w.repo, '--brief', w.brief(id!, task!), '--agent', 'mock', ...extra, '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  }
  expect((await w.hand(['wait', 'rest1', '--until', 'settled', '--timeout', '30s', '--json'])).code).toBe(0);
  await until('busy1 at work on a readable screen', () => rows(w), (rs) => rs.some((r) => r.id === 'busy1' && r.state === 'working' && r.readable), 30_000);
}

describe('a silent terminal server is could-not-tell within its bound, and back when it answers', () => {
  it('tmux: SIGSTOP → every worker reads could not tell with the reason (status, wait, watch --needs-you); SIGCONT → the live reading', async () => {
    const w = await makeWorld('silent-tmux', { env: { HAND_SERVER_ANSWER_MS: String(BOUND_MS) } });
    await atWorkAndAtRest(w);
    const before = await rows(w);
    expect(before.map((r) => [r.id, r.readable, r.live, r.couldNotTell])).toEqual([['busy1', true, true, null], ['rest1', true, true, null]]);

    const watch = w.hand(['watch', '--needs-you', '--json', '--timeout', '9s'], { timeoutMs: 30_000 });
    const socket = homePaths(w.home).tmuxSocket;
    const pid = Number(execFileSync('tmux', ['-S', socket, 'display-message', '-p', '#{pid}'], { encoding: 'utf8' }).trim());
    // hand wait wakes for it: could not tell is a condition a person must hear of, never "working".
    const { waited, seenAfter } = await waitOnStoppedServer(w, pid, 'busy1', (p) => (stopped = p));
    expect(waited.json).toMatchObject({ reason: 'wait-failed', met: false, readable: false, state: 'unknown', couldNotTell: 'the tmux server did not answer within 1 s' });
    expect(waited.code, 'a wait that could not tell is not met').not.toBe(0);
    expect(seenAfter, `seen ${seenAfter} ms after the stop`).toBeLessThan(SEEN_WITHIN_MS);
    expect(seenAfter, 'not before the bound').toBeGreaterThanOrEqual(BOUND_MS / 2);
    const waitText = await w.hand(['wait', 'busy1', '--until', 'settled', '--timeout', '20s']);
    expect(waitText.stdout).toContain('busy1: wait-failed (waited for settled)');
    expect(waitText.stdout).toContain('UNREADABLE (the tmux server did not answer within 1 s)');

    // Every worker on the server, the one at rest too: readable no, live could not tell, the reason.
    const silent = await rows(w);
    expect(silent.map((r) => [r.id, r.readable, r.live, r.couldNotTell])).toEqual([
      ['busy1', false, null, 'the tmux server did not answer within 1 s'],
      ['rest1', false, null, 'the tmux server did not answer within 1 s'],
    ]);
    // A rest does not depend on the screen: the one at rest waits as settled, its screen unread.
    const rest = await w.hand(['wait', 'rest1', '--until', 'settled', '--timeout', '5s', '--json']);
    expect(rest.json).toMatchObject({ reason: 'settled', met: true, readable: false, couldNotTell: 'the tmux server did not answer within 1 s' });
    const text = await w.hand(['status']);
    expect(text.stdout).toContain('busy1: could not tell: the tmux server did not answer within 1 s (not gone, not stalled; read again when it answers)');
    // A read of its screen (hand read, the Hand's read tool) says so at once, never hangs on the stopped server.
    const readStarted = Date.now();
    const read = await w.hand(['read', 'busy1', '--json'], { timeoutMs: 10_000 });
    expect(Date.now() - readStarted, 'hand read answered while the server is stopped').toBeLessThan(BOUND_MS * 3);
    expect(read.code).not.toBe(0);
    expect(read.stdout + read.stderr).toContain('could not tell: the tmux server did not answer within 1 s');

    // Held silent for three bounds more: never a stall, never gone, never the last reading.
    const seen = new Set<string>();
    const heldUntil = Date.now() + 3 * BOUND_MS;
    while (Date.now() < heldUntil) {
      for (const r of await rows(w)) seen.add(`${r.id}:${r.condition}:${r.readable}:${r.live}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect([...seen].filter((s) => /:(stalled|gone|stuck):|:true:|:true$/.test(s)), [...seen].join(' ')).toEqual([]);

    process.kill(pid, 'SIGCONT');
    stopped = null;
    const back = await until('both workers read live again', () => rows(w), (rs) => rs.every((r) => r.readable && r.live === true && r.couldNotTell === null), 10_000);
    expect(back.map((r) => [r.id, r.condition, r.state])).toEqual([['busy1', 'busy', 'working'], ['rest1', 'settled', 'idle']]);

    const events = (await watch).stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { worker: string; need: string; line: string });
    const couldNotTell = events.filter((e) => e.need === 'wait-failed');
    expect(couldNotTell.map((e) => e.worker), 'the worker at work wakes the Hand once').toEqual(['busy1']);
    expect(couldNotTell[0]!.line).toBe('busy1 could not tell: the tmux server did not answer within 1 s; not gone, not stalled, read again when the server answers → hand status busy1');
    expect(events.filter((e) => ['stalled', 'crashed'].includes(e.need))).toEqual([]);
  }, 120_000);

  it('herdr (the double): SIGSTOP of its server → could not tell with the reason; SIGCONT → the live reading', async () => {
    const double = makeHerdrDouble('silent-herdr');
    doubles.push(double);
    // The person's herdr server, running before the daemon comes (the daemon never starts one).
    const starter = createHerdrHost(double.hostOptions());
    await starter.ensureServer();
    await starter.dispose();
    const w = await makeWorld('silent-herdr', { env: { HAND_SERVER_ANSWER_MS: String(BOUND_MS), HAND_HERDR_BIN: double.bin, HAND_HERDR_SOCKET: double.socketPath } });
    await atWorkAndAtRest(w, ['--backend', 'herdr']);
    const pid = serverPid(`${double.bin} server`);
    const { waited, seenAfter } = await waitOnStoppedServer(w, pid, 'busy1', (p) => (stopped = p));
    expect(waited.json).toMatchObject({ reason: 'wait-failed', met: false, readable: false, couldNotTell: 'the herdr server did not answer within 1 s' });
    expect(seenAfter, `seen ${seenAfter} ms after the stop`).toBeLessThan(SEEN_WITHIN_MS);
    const silent = await rows(w);
    expect(silent.map((r) => [r.id, r.readable, r.live, r.couldNotTell])).toEqual([
      ['busy1', false, null, 'the herdr server did not answer within 1 s'],
      ['rest1', false, null, 'the herdr server did not answer within 1 s'],
    ]);
    expect(silent.map((r) => r.condition).filter((c) => ['stalled', 'gone'].includes(c))).toEqual([]);
    process.kill(pid, 'SIGCONT');
    stopped = null;
    const back = await until('both herdr workers read live again', () => rows(w), (rs) => rs.every((r) => r.readable && r.live === true && r.couldNotTell === null), 10_000);
    expect(back.map((r) => [r.id, r.condition, r.state])).toEqual([['busy1', 'busy', 'working'], ['rest1', 'settled', 'idle']]);
  }, 120_000);
});

/** The pid of the one process whose command line ends with `tail` (the double's server). */
function serverPid(tail: string): number {
  const found = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }).split('\n').filter((l) => l.trimEnd().endsWith(tail));
  expect(found, `one process running ${tail}`).toHaveLength(1);
  return Number(found[0]!.trim().split(/\s+/)[0]);
}
