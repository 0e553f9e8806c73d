import { describe, expect, it } from 'vitest';
import { conditionOf, meets } from '../../actors/wait-report.ts';
import type { WorkerViewLike } from '../../actors/fleet-api.ts';
import { meaningOfStage } from '../../actors/condition.ts';

/** A view of a worker in `stage`: its condition and marks come from the machine's tags for that stage. */
const view = (stage: string, extra: Partial<WorkerViewLike> = {}): WorkerViewLike => ({
  ...meaningOfStage(stage), id: 'w', project: 'p', stage, state: 'idle', awaitingInput: false, blockedReason: null, promptBox: '', readable: true, live: true,
  backend: 'tmux', host: 'local', agent: 'mock', worktree: '', branch: '', base: '', briefPath: '', reportPath: '', reportExists: false,
  lastActivity: '', lastChangeAt: null, stallAt: null, exitCode: null, updatedAt: 0, waitingOn: null, promptBoxKind: null, paneId: null, problem: null, gate: null, landing: null, landed: null, rejection: null, landingFailure: null, ...extra,
});

describe('hand wait conditions follow the worker stage', () => {
  it('a worker at a gate waits on a person: blocked', () => {
    expect(conditionOf(view('gate.awaitingBriefApproval', { live: null }))).toBe('blocked');
    expect(conditionOf(view('landing.awaitingApproval'))).toBe('blocked');
  });
  it('settled, done and parked are settled; settled is not a stall', () => {
    for (const s of ['settled.unconfirmed', 'done', 'parked']) expect(conditionOf(view(s))).toBe('settled');
  });
  it('checking and reading the report are moments on the way to done or parked, not yet settled', () => {
    for (const s of ['settled.checking', 'reporting']) expect(conditionOf(view(s))).toBeNull();
  });
  it('final stages are gone, including rejected and landed', () => {
    for (const s of ['stopped', 'gone', 'failed', 'lost', 'rejected', 'landed']) expect(conditionOf(view(s))).toBe('gone');
  });
  it('a busy or starting worker has no condition yet', () => {
    for (const s of ['running.working', 'starting.waiting', 'briefing.confirming']) expect(conditionOf(view(s, { state: 'working' }))).toBeNull();
  });
  it('a dialog on screen is blocked wherever the worker is', () => {
    expect(conditionOf(view('starting.blocked', { awaitingInput: true }))).toBe('blocked');
  });
  it('waitFailed is never turned into gone', () => {
    expect(conditionOf(view('waitFailed', { live: null }))).toBe('wait-failed');
    expect(meets('wait-failed', 'any')).toBe(false);
  });
  it('--until exited is met by gone only; --until any by every condition', () => {
    expect(meets('gone', 'exited')).toBe(true);
    expect(meets('settled', 'exited')).toBe(false);
    expect(meets('stalled', 'any')).toBe(true);
    expect(meets('timeout', 'any')).toBe(false);
  });
});
