/**
 * The held-decision loop with the real Claude Code binary against the fake model API, on tmux:
 * the worker writes a `Waiting on:` report through the Write tool and ends its turn; it parks, a
 * decision record opens with the question and options; `hand decide` types the answer into the
 * live session and the worker writes its final report and ends done.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { FAKE_PARK_QUESTION } from '../../io/fake-model/anthropic/park-script.ts';
import { type E2eWorld, useE2eWorld } from './e2e-world.ts';
import { waitFor } from '../helpers/temp.ts';

let fake: FakeAnthropic;
let w: E2eWorld;
useE2eWorld('e2e-park', {}, {}, (made) => void ({ fake, w } = made));

describe('real Claude Code worker parks on a decision', () => {
  it('Waiting on in the report parks it; hand decide brings the answer back and it finishes done', async () => {
    const id = 'park-tmux';
    const report = w.reportPathOf(id);
    await w.dispatch(id, 'tmux', `MODE:park ${report}`);
    // Parked counts as settled: one event-driven wait instead of a `hand decisions` process every
    // half second from dispatch on (about 15 CLI starts, each ~0.3 s of CPU).
    const parked = await w.wait(id, 'settled', '90s');
    expect(parked.code, parked.stdout + parked.stderr).toBe(0);
    const decisions = await waitFor(async () => {
      const r = await w.hand(['decisions', '--json']);
      return r.json?.length === 1 ? r.json : undefined;
    }, { what: `the decision of ${id}`, timeoutMs: 90_000, intervalMs: 500 });
    expect(decisions[0]).toMatchObject({ worker: id, question: FAKE_PARK_QUESTION, options: ['Redis', 'SQS'] });
    expect((await w.status(id)).stage).toBe('parked');

    const answer = await w.hand(['decide', decisions[0].key, 'Redis', '--json']);
    expect(answer.code, answer.stdout + answer.stderr).toBe(0);
    expect(answer.json).toMatchObject({ delivery: 'sent' });
    await waitFor(async () => (await w.status(id)).stage === 'done', { what: `${id} done after the answer`, timeoutMs: 90_000, intervalMs: 500 });
    expect(readFileSync(report, 'utf8')).toContain('Done with Redis');
  }, 240_000);
});
