/**
 * Rule: whether a terminal server answers is learnt from what it sends anyway, and it is asked
 * only while it is silent (issue 38 item 8; the cost rule of docs/2026-12-02-where-the-daemons-
 * time-goes.md). On a real tmux server with the mock agent: a pane that streams proves the server
 * alive and it is asked nothing; a quiet fleet costs one control-mode question per half bound per
 * server, whatever its number of panes; a SIGSTOPped server is told "not answering" within its
 * bound, with the reason, and "answering" again as soon as it is let go.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { guardedSendText } from '../../io/terminal/guarded-send.ts';
import type { ServerAnswers } from '../../io/terminal/types.ts';
import { waitFor } from '../helpers/temp.ts';
import { startMock, waitForReading } from './mock-worker.ts';
import { useCleanups } from '../helpers/cleanups.ts';
import { tmuxInTempDir } from './tmux-in-temp-dir.ts';

const BOUND_MS = 400;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a terminal server is asked only while it is silent', () => {
  const defer = useCleanups();

  it('streaming: asked nothing; quiet: one question per half bound; SIGSTOP: not answering within the bound; SIGCONT: answering', async () => {
    const { dir, host } = tmuxInTempDir(defer, 'tmux-answers', { answerBoundMs: BOUND_MS });
    const panes = await Promise.all(['quiet1', 'quiet2', 'quiet3'].map((name) => startMock(host, { name, dir })));
    const told: ServerAnswers[] = [];
    defer(host.watchAnswers!((a) => told.push(a)));

    // Three quiet panes for six bounds: the server is asked, at most once per half bound (plus the tick it falls on).
    let from = host.answerChecks().asked;
    await pause(6 * BOUND_MS);
    const quiet = host.answerChecks().asked - from;
    expect(quiet, 'a quiet server is asked').toBeGreaterThanOrEqual(1);
    expect(quiet, 'one question per half bound, not one per pane').toBeLessThanOrEqual(13);
    expect(told, 'a quiet server that answers is never told silent').toEqual([]);

    // One pane streaming its spinner: what it draws proves the server alive; nothing is asked.
    const paneId = panes[0]!.pane.paneId;
    await guardedSendText(host, paneId, 'MODE:hang keep spinning');
    await waitForReading(host, paneId, (r) => r.state === 'working', 'the spinner');
    // What the pane drew, as the host heard it: under a loaded machine the spinner itself can go
    // half a bound without a frame, and then the server is rightly asked. So the rule is checked as
    // it is written: a question only after half a bound heard from nobody, and none while the
    // frames keep coming (every gap shorter than that: nothing asked at all).
    const frames: number[] = [];
    defer(host.subscribe(paneId, () => frames.push(Date.now())));
    from = host.answerChecks().asked;
    const streamFrom = Date.now();
    await pause(6 * BOUND_MS);
    const asked = host.answerChecks().asked - from;
    const times = [streamFrom, ...frames.filter((t) => t >= streamFrom), Date.now()];
    const silences = times.slice(1).filter((t, i) => t - times[i]! >= BOUND_MS / 2).length;
    expect(frames.length, 'the spinner streams').toBeGreaterThan(3);
    expect(asked, `a streaming server is asked only after half a bound of silence (${silences} such gaps among ${frames.length} frames)`).toBeLessThanOrEqual(silences);
    expect(told).toEqual([]);

    // Stopped: told within the bound (and its quarter), with the reason; let go: told at once.
    const pid = Number(execFileSync('tmux', ['-S', host.socketPath, 'display-message', '-p', '#{pid}'], { encoding: 'utf8' }).trim());
    const t0 = Date.now();
    process.kill(pid, 'SIGSTOP');
    defer(() => void process.kill(pid, 'SIGCONT'));
    await waitFor(() => told.length > 0, { what: 'the stopped server told silent', timeoutMs: 10_000, intervalMs: 10 });
    const silentAfter = Date.now() - t0;
    expect(told).toEqual([{ answering: false, reason: 'the tmux server did not answer within 400 ms' }]);
    expect(silentAfter, `told ${silentAfter} ms after the stop`).toBeLessThan(BOUND_MS + BOUND_MS / 4 + 1_500);
    const t1 = Date.now();
    process.kill(pid, 'SIGCONT');
    await waitFor(() => told.length > 1, { what: 'the server told answering again', timeoutMs: 10_000, intervalMs: 10 });
    expect(told[1]).toEqual({ answering: true });
    expect(Date.now() - t1, 'answering again as soon as it answers').toBeLessThan(BOUND_MS + 1_000);
  }, 60_000);
});
