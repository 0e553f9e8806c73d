/**
 * Rule (issue 21, item 5): a turn that ended in an API error or a usage limit is a condition of
 * its own, `agent-error`, with the message — from the screen or from Claude Code's StopFailure
 * hook. It wakes `hand wait`, notifies, and is never settled and never done. Before, the worker
 * went back to an empty box, read settled, then `settled.unconfirmed`: nothing said the model failed.
 */
import { describe, it, expect } from 'vitest';
import { settle, toWorking, type Harness, useHarness, show } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { conditionOf, meets } from '../../actors/wait-report.ts';
import { labelOf, NEEDS_PERSON } from '../../actors/notify/conditions.ts';
import { noteOf } from '../../contract/hook-note.ts';
import type { WorkerViewLike } from '../../actors/fleet-api.ts';

const ERROR = 'API Error (Request timed out.) after 10 retries';
let h: Harness;
const harness = useHarness();
const view = () => h.fleet.view('w1')! as unknown as WorkerViewLike & { problem: string | null; stage: string };

async function expectAgentErrorForGood(message: string): Promise<void> {
  const reason = conditionOf(view());
  expect(reason, `stage ${view().stage}`).toBe('agent-error');
  expect(meets(reason!, 'any')).toBe(true);
  expect(meets(reason!, 'settled'), 'an API error is not a finished turn').toBe(false);
  expect(view().problem).toContain(message);
  const label = labelOf(view());
  expect(label).toBe('agent-error');
  expect(NEEDS_PERSON.has(label), 'a person is notified').toBe(true);
  // However long it sits there, and with a report on disk, it is never settled or done.
  h.reports.add('/data/w1/report.md');
  h.clock.increment(60_000);
  await settle(h);
  expect(conditionOf(view())).toBe('agent-error');
}

describe('a turn that ended in an API error is agent-error', () => {
  it('read from the screen: the error line above an empty box', async () => {
    h = await harness.start();
    const pane = await toWorking(h, 'w1');
    await show(h, pane, reading({ fingerprint: 'f-error', agentError: ERROR }));
    await expectAgentErrorForGood(ERROR);
  });

  it("read from the StopFailure hook when the screen shows only an empty box", async () => {
    h = await harness.start();
    const pane = await toWorking(h, 'w1');
    await show(h, pane, reading({ fingerprint: 'f-empty-after-error' }));
    await h.fleet.hook(noteOf('w1', 'StopFailure', { hook_event_name: 'StopFailure', error: 'rate_limit', error_details: 'Claude usage limit reached' }, h.clock.now()));
    await settle(h);
    await expectAgentErrorForGood('Claude usage limit reached');
  });

  it('a new prompt taken up after the error is work again, and the problem is cleared', async () => {
    h = await harness.start();
    const pane = await toWorking(h, 'w1');
    await show(h, pane, reading({ fingerprint: 'f-error', agentError: ERROR }));
    await show(h, pane, reading({ state: 'working', fingerprint: 'f-retry-by-hand' }));
    expect(view().stage).toBe('running.working');
    expect(view().problem).toBeNull();
  });
});
