/**
 * A daemon killed with SIGKILL is restarted by the next command and resumes the fleet from
 * SQLite: every tmux worker is back, in the same state, re-attached and steerable; the stall
 * deadline still fires at its original time; nothing is duplicated; the journal is continuous.
 */
import { socketRefuses } from '../helpers/processes.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { makeCliWorld, type CliWorld } from './cli-harness.ts';
import { waitFor } from '../helpers/temp.ts';

let world: CliWorld | null = null;
afterEach(async () => {
  await world?.cleanup();
  world = null;
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('daemon crash and resume (real SQLite, real tmux)', () => {
  it('SIGKILL mid-run: the next hand status restarts the daemon with the same workers, live, in their states', async () => {
    world = await makeCliWorld('cli-resume', { daemonProcess: true });
    const w = world;
    // yolo: the dispatch gate is not what a restart is tested on here (tests/actors covers a gate across a restart).
    await w.hand(['annex', w.repo, '--yolo']);
    const dispatch = async (id: string, stall: string) => {
      const r = await w.hand(['dispatch', id, '--repo', w.repo, '--brief', w.brief(id, 'work'), '--agent', 'mock', '--stall', stall, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const s = await w.hand(['wait', id, '--until', 'settled', '--timeout', '30s', '--json']);
      expect(s.code, s.stdout + s.stderr).toBe(0);
    };
    await dispatch('idle1', '20m');
    await dispatch('asker', '20m');
    await dispatch('staller', '12s');
    await w.hand(['send', 'asker', 'MODE:ask', 'pick one']);
    expect((await w.hand(['wait', 'asker', '--until', 'blocked', '--timeout', '30s'])).code).toBe(0);
    await w.hand(['send', 'staller', 'MODE:hang', 'long job']);
    // The hung turn's screen settles within a second or two (the spinner's counters appear, then
    // only normalised-away parts repaint); a deadline is compared once it has stopped moving.
    let lastStallAt = NaN;
    let before: Array<Record<string, any>> = [];
    await waitFor(
      async () => {
        before = (await w.hand(['status', '--json'])).json as Array<Record<string, any>>;
        const now = Date.parse(before.find((r) => r.id === 'staller')!.stallAt);
        const steady = now === lastStallAt;
        lastStallAt = now;
        return steady;
      },
      { what: "the staller's stall deadline to stop moving", timeoutMs: 20_000, intervalMs: 1500 },
    );
    const stallAt = lastStallAt;
    expect(Number.isFinite(stallAt)).toBe(true);

    const pid = (await w.hand(['daemon', 'status', '--json'])).json.pid as number;
    process.kill(pid, 'SIGKILL');
    await waitFor(() => !alive(pid), { what: `daemon ${pid} to die after SIGKILL` });
    await socketRefuses(join(w.home, 'hand.sock'));

    const after = await w.hand(['status', '--json']);
    expect(after.code, after.stderr).toBe(0);
    const newPid = (await w.hand(['daemon', 'status', '--json'])).json.pid as number;
    expect(newPid).not.toBe(pid);
    const rows = after.json as Array<Record<string, any>>;
    expect(rows.map((r) => r.id).sort()).toEqual(['asker', 'idle1', 'staller']);
    for (const r of rows) expect(r.live, r.id).toBe(true);
    const byId = (id: string) => rows.find((r) => r.id === id)!;
    expect(byId('asker')).toMatchObject({ awaitingInput: true, blockedReason: 'question' });
    expect(byId('idle1').stage.split('.')[0]).toBe(before.find((r) => r.id === 'idle1')!.stage.split('.')[0]);
    expect(Date.parse(byId('staller').stallAt)).toBe(stallAt);

    // One tmux window per worker: re-attached, not re-created. (Each is also linked into the
    // monitor session, beside its placeholder: the monitor's windows are the same windows.)
    const windows = execFileSync('tmux', ['-S', join(w.home, 'tmux.sock'), 'list-windows', '-a', '-F', '#{window_id} #{session_name}'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((line) => line.split(' '));
    const workerWindows = windows.filter(([, session]) => session !== 'kh-monitor').map(([id]) => id);
    expect(workerWindows).toHaveLength(3);
    expect(new Set(windows.map(([id]) => id)).size).toBe(4);

    // The stall deadline armed before the crash still fires, at its original time.
    const stalled = await w.hand(['wait', 'staller', '--until', 'stalled', '--timeout', '40s', '--json']);
    expect(stalled.code, stalled.stdout).toBe(0);
    expect(Date.now()).toBeGreaterThanOrEqual(stallAt);

    // Still steerable: answer the question one key per call.
    expect((await w.hand(['keys', 'asker', 'enter'])).code).toBe(0);
    expect((await w.hand(['wait', 'asker', '--until', 'settled', '--timeout', '30s'])).code).toBe(0);

    // The journal is one continuous sequence across both daemon lives.
    const db = new Database(join(w.home, 'fleet.db'), { readonly: true });
    const seqs = (db.prepare('SELECT seq FROM journal ORDER BY seq').all() as Array<{ seq: number }>).map((r) => r.seq);
    db.close();
    expect(seqs.length).toBeGreaterThan(10);
    expect(seqs.at(-1)! - seqs[0]! + 1).toBe(seqs.length);
  });
});
