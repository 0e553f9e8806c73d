/**
 * Both gates are worker machine states, persisted like every other state: a daemon restart
 * (the fleet host rebuilt over the same store) finds each worker still waiting at its gate,
 * with the evidence it was opened with, and an approval after the restart goes on from there.
 */
import { describe, it, expect } from 'vitest';
import { intent, showStartScreen, showTurnEnd, STALL_MS, type Harness, startHarness, show } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import type { LandingPort } from '../../actors/ports.ts';
import type { LandingSummary } from '../../machines/worker.types.ts';
import type { WorkerIntent } from '../../persistence/types.ts';

/** A landing port that records what it was asked to do (the git side is tested in tests/landing). */
function recordingLanding(): LandingPort & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async land(i: WorkerIntent, approved: LandingSummary) {
      calls.push(`land ${i.id} ${approved.headSha} by ${approved.approvedBy}`);
      return { posture: 'local-only', detail: { target: 'main' }, tearDown: true };
    },
    async removeWorktree(i: WorkerIntent) {
      calls.push(`remove ${i.worktree}`);
      return { problem: null };
    },
  };
}

const EVIDENCE = { posture: 'local-only', base: 'main', branch: 'worktree-w1', baseSha: 'b0', headSha: 'h1', verdict: 'ready', diffStat: ' a.txt | 1 +', log: 'h1 add a', commits: 1 };

/** Walks a started worker to done: idle box → brief → work → idle with a report. */
async function toDone(h: Harness, id: string): Promise<string> {
  const pane = h.fleet.view(id)!.paneId!;
  await showStartScreen(h, pane);
  await show(h, pane, reading({ state: 'working', fingerprint: 'f-w' }));
  h.reports.add(`/data/${id}/report.md`);
  await showTurnEnd(h, pane);
  expect(h.fleet.view(id)!.stage).toBe('done');
  return pane;
}

describe('gates survive a daemon restart', () => {
  it('a worker waiting at brief approval is still there after a restart, with nothing made; approve then makes it', async () => {
    const made: string[] = [];
    const h = await startHarness({ ports: { prepareWorktree: async (i) => void made.push(`worktree ${i.id}`), seedAgent: async (i) => void made.push(`seed ${i.id}`) } });
    const v = await h.fleet.dispatch({ intent: intent('w1'), stallMs: STALL_MS, firstPrompt: 'brief', briefGate: true });
    expect(v.stage).toBe('gate.awaitingBriefApproval');
    expect(v.gate).toBe('brief approval');

    const { restored } = await h.restart();
    expect(restored).toEqual(['w1']);
    expect(h.fleet.view('w1')).toMatchObject({ stage: 'gate.awaitingBriefApproval', gate: 'brief approval', paneId: null });
    expect(made).toEqual([]);
    expect(h.host.panes.size).toBe(0);

    const approved = await h.fleet.approve('w1');
    expect(approved.stage).toBe('starting.waiting');
    expect(made).toEqual(['worktree w1', 'seed w1']);
    expect(h.host.panes.size).toBe(1);
    await h.fleet.shutdown();
  });

  it('a brief rejected before a restart stays rejected with its reason, and nothing was made', async () => {
    const made: string[] = [];
    const h = await startHarness({ ports: { prepareWorktree: async (i) => void made.push(i.id) } });
    await h.fleet.dispatch({ intent: intent('w1'), stallMs: STALL_MS, firstPrompt: 'brief', briefGate: true });
    const v = await h.fleet.reject('w1', 'scope too wide');
    expect(v).toMatchObject({ stage: 'rejected', rejection: { gate: 'brief', reason: 'scope too wide' } });
    await h.restart();
    expect(h.fleet.view('w1')).toMatchObject({ stage: 'rejected', gate: null, rejection: { gate: 'brief', reason: 'scope too wide' } });
    expect(made).toEqual([]);
    await expect(h.fleet.approve('w1')).rejects.toMatchObject({ code: 'no-open-gate' });
    // Revised and re-submitted under the same id: it waits at the gate again.
    const again = await h.fleet.dispatch({ intent: intent('w1'), stallMs: STALL_MS, firstPrompt: 'revised brief', briefGate: true });
    expect(again.stage).toBe('gate.awaitingBriefApproval');
    expect(made).toEqual([]);
    await h.fleet.shutdown();
  });

  it('an open landing gate keeps its evidence across a restart; approve lands, stops the agent by /exit, then removes the worktree', async () => {
    const landing = recordingLanding();
    const h = await startHarness({ landing });
    await h.fleet.dispatch({ intent: intent('w1'), stallMs: STALL_MS, firstPrompt: 'brief' });
    const pane = await toDone(h, 'w1');
    const opened = await h.fleet.openLanding('w1', EVIDENCE, { yolo: false });
    expect(opened).toMatchObject({ stage: 'landing.awaitingApproval', gate: 'landing approval', landing: { headSha: 'h1', approvedBy: null } });

    await h.restart();
    expect(h.fleet.view('w1')).toMatchObject({ stage: 'landing.awaitingApproval', gate: 'landing approval', landing: { headSha: 'h1', diffStat: ' a.txt | 1 +' } });
    expect(landing.calls).toEqual([]); // nothing lands before approval

    h.host.onSend = (p, rec) => {
      if (rec.text === '/exit') {
        landing.calls.push('/exit');
        queueMicrotask(() => h.host.exit(p, 0));
      }
    };
    const done = await h.fleet.approve('w1');
    expect(done).toMatchObject({ stage: 'landed', gate: null, landed: { posture: 'local-only' }, problem: null });
    expect(landing.calls).toEqual(['land w1 h1 by person', '/exit', 'remove /repo/.worktrees/w1']);
    expect(h.host.panes.has(pane)).toBe(false); // the pane was closed before the worktree went
    await h.fleet.shutdown();
  });

  it('a rejected landing goes back to done with the reason kept; yolo lands without waiting', async () => {
    const landing = recordingLanding();
    const h = await startHarness({ landing });
    await h.fleet.dispatch({ intent: intent('w1'), stallMs: STALL_MS, firstPrompt: 'brief' });
    await toDone(h, 'w1');
    await h.fleet.openLanding('w1', EVIDENCE, { yolo: false });
    const rejected = await h.fleet.reject('w1', 'split the commit');
    expect(rejected).toMatchObject({ stage: 'done', gate: null, rejection: { gate: 'landing', reason: 'split the commit' }, landing: null });
    await h.restart();
    expect(h.fleet.view('w1')!.rejection).toMatchObject({ reason: 'split the commit' });
    expect(landing.calls).toEqual([]);

    h.host.onSend = (p, rec) => { if (rec.text === '/exit') queueMicrotask(() => h.host.exit(p, 0)); };
    const landed = await h.fleet.openLanding('w1', EVIDENCE, { yolo: true });
    expect(landed.stage).toBe('landed');
    expect(landing.calls[0]).toBe('land w1 h1 by yolo');
    await h.fleet.shutdown();
  });

  it('approve or reject with no gate open is refused, naming the stage and the way to a gate', async () => {
    const h = await startHarness();
    await h.fleet.dispatch({ intent: intent('w1'), stallMs: STALL_MS, firstPrompt: 'brief' });
    await toDone(h, 'w1');
    await expect(h.fleet.approve('w1')).rejects.toMatchObject({ code: 'no-open-gate', message: expect.stringContaining('hand land w1') });
    await expect(h.fleet.reject('w1', 'x')).rejects.toMatchObject({ code: 'no-open-gate', message: expect.stringContaining('stage done') });
    await h.fleet.shutdown();
  });
});
