/**
 * What a worker view means to the person is derived from the daemon's own condition
 * (conditionOf) plus plain view fields: a question or permission is `blocked`, a gate is `gate`,
 * a settled worker pointing at a decision is `parked`, a worker gone without landing and without
 * a clean exit is `crashed`. Only those four are pushed; the rest go to the journal.
 */
import { describe, expect, it } from 'vitest';
import { buildView } from '../../actors/worker-view.ts';
import { meaningOfStage } from '../../actors/condition.ts';
import { labelOf, NEEDS_PERSON, describe as describeLabel } from '../../actors/notify/conditions.ts';
import { decisionKey } from '../../persistence/work/decision-store.ts';

const intent = { id: 'w1', project: 'shop', repo: '/r', worktree: '/r/w', branch: 'worktree-w1', base: 'main', backend: 'tmux' as const, agent: 'mock', briefPath: '/b', reportPath: '/s/report.md', createdAt: 1 };
const reading = (over: Record<string, unknown> = {}) => ({ state: 'idle', awaitingInput: false, blockedReason: null, promptBox: '', promptBoxKind: 'empty', readable: true, lastActivity: 'Do you want to proceed?', ...over });
const view = (stage: string, ctx: Record<string, unknown> = {}, live: boolean | null = true) =>
  buildView({ intent, stage, meaning: meaningOfStage(stage), live, updatedAt: 1, context: { reading: reading(ctx.reading as Record<string, unknown>), reportExists: true, waitingOn: null, exitCode: null, landed: null, ...ctx } as never });

describe('labels', () => {
  it('a dialog is blocked, a gate is gate, a settled worker with a decision pointer is parked', () => {
    expect(labelOf(view('running.blocked', { reading: { awaitingInput: true, blockedReason: 'permission', state: 'blocked' } }))).toBe('blocked');
    expect(labelOf(view('landing.awaitingApproval'))).toBe('gate');
    const parked = view('parked', { waitingOn: 'Which one?' });
    expect(labelOf(parked)).toBe('parked');
    expect(describeLabel(parked, 'parked')).toMatchObject({ question: 'Which one?', command: `hand decide ${decisionKey('w1', 'Which one?')} "<answer>"` });
    expect(labelOf(view('done'))).toBe('done');
    expect(labelOf(view('running.working', { reading: { state: 'working' } }))).toBe('busy');
  });

  it('gone after a landing is landed; a clean exit is exited; anything else gone is crashed', () => {
    expect(labelOf(view('landed', { landed: { posture: 'local-only', detail: { pr: 'https://example.invalid/pr/3' } } }))).toBe('landed');
    expect(describeLabel(view('landed', { landed: { posture: 'direct-PR', detail: { pr: 'https://example.invalid/pr/3' } } }), 'landed').pr).toBe('https://example.invalid/pr/3');
    expect(labelOf(view('stopped', { exitCode: 0 }))).toBe('exited');
    expect(labelOf(view('gone', { exitCode: 3 }))).toBe('crashed');
    expect(labelOf(view('running.working', {}, false))).toBe('crashed');
  });

  it("a blocked worker's question is its dialog's question, not the screen's last line (the away account quotes it)", () => {
    const dialog = { fingerprint: '01f5e001964a280f', reason: 'question', question: 'Which database should the shop use?', options: [{ n: 1, label: 'SQLite' }, { n: 2, label: 'Postgres' }], numbered: true, cursor: 1, textField: false };
    const asked = view('running.blocked', { reading: { readable: true, awaitingInput: true, blockedReason: 'question', state: 'blocked', lastActivity: '3. Type something. | Enter to select', dialog } });
    expect(describeLabel(asked, 'blocked').question).toBe('Which database should the shop use?');
    // Without a dialog the reader could list, the last screen line is all there is to quote.
    const unlisted = view('running.blocked', { reading: { readable: true, awaitingInput: true, blockedReason: 'permission', state: 'blocked', lastActivity: 'Do you want to proceed?' } });
    expect(describeLabel(unlisted, 'blocked').question).toBe('Do you want to proceed?');
  });

  it('only blocked, gate, parked, crashed and agent-error need the person', () => {
    expect([...NEEDS_PERSON].sort()).toEqual(['agent-error', 'blocked', 'crashed', 'gate', 'parked']);
  });
});
