/**
 * The review page's journal translates machine event names into a person's words (issue 23
 * item 7): rows read `xstate.done.actor.0.worker.preparing`; now they read "worktree ready",
 * with the raw name in the cell's title (tooltip) for whoever debugs the machine.
 */
import { describe, expect, it } from 'vitest';
import { workerDetailsHtml } from '../../actors/review/render-worker.ts';
import type { WorkerDetails } from '../../actors/review/worker-details.ts';

const row = (seq: number, type: string, from: unknown, to: unknown) => ({ seq, actorId: 'worker:w1', event: { type }, from, to, at: Date.UTC(2026, 11, 1, 12, 0, seq) });

function details(journal: WorkerDetails['journal']): WorkerDetails {
  return { brief: null, report: null, evidence: null, journal, posture: 'local-only', stage: 'running.working' } as unknown as WorkerDetails;
}

describe("the review page's journal speaks in words", () => {
  it('machine event names become words, the raw name in a tooltip', () => {
    const html = workerDetailsHtml(details([
      row(1, 'xstate.done.actor.0.worker.preparing', { worker: 'preparing' }, { worker: 'seeding' }),
      row(2, 'xstate.done.actor.0.worker.seeding', { worker: 'seeding' }, { worker: 'spawning' }),
      row(3, 'xstate.done.actor.0.worker.spawning', { worker: 'spawning' }, { worker: 'starting' }),
      row(4, 'xstate.error.actor.0.worker.spawning', { worker: 'spawning' }, { worker: 'failed' }),
      row(5, 'APPROVE', { worker: 'gate' }, { worker: 'preparing' }),
    ]));
    expect(html).toContain('<td title="xstate.done.actor.0.worker.preparing">worktree ready</td>');
    expect(html).toContain('<td title="xstate.done.actor.0.worker.seeding">agent settings and folder trust written</td>');
    expect(html).toContain('<td title="xstate.done.actor.0.worker.spawning">terminal started</td>');
    expect(html).toContain('<td title="xstate.error.actor.0.worker.spawning">starting the terminal failed</td>');
    expect(html).toContain('<td title="APPROVE">approved by a person</td>');
    // No machine name is shown as the cell's text.
    expect(html).not.toMatch(/>xstate\./);
  });
});
