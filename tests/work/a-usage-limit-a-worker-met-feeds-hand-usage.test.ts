/**
 * Rule (issue 21, item 5): a usage-limit message feeds `hand usage`. A worker whose turn ended on
 * its plan's limit reads `agent-error`; `hand usage` then names that worker and quotes its words
 * (with the reset phrase as written) even when no usage source is configured, and a dispatch
 * warns with it — it never refuses on it, since another account may be the one that ran out.
 * An API error that is not a limit feeds nothing.
 */
import { describe, expect, it } from 'vitest';
import { useDaemonWorld } from '../helpers/daemon-world.ts';
import { limitsSeen } from '../../actors/usage/limit-seen.ts';

const world = useDaemonWorld();

describe('a usage limit a worker met feeds hand usage', () => {
  it('hand usage quotes the worker that met the limit; dispatch warns with it and still dispatches', async () => {
    const w = await world('usage-limit-seen', { annexYolo: true });
    const before = await w.call('usage');
    expect(before.limitsSeen).toEqual([]);
    await w.dispatch('lim', 'MODE:limit do the work');
    const ended = await w.call('wait', { id: 'lim', until: 'any', timeoutMs: 30_000 });
    expect(ended.reason ?? ended.condition, JSON.stringify(ended)).toBe('agent-error');

    const usage = await w.call('usage');
    expect(usage.limitsSeen).toHaveLength(1);
    expect(usage.limitsSeen[0]).toMatchObject({ worker: 'lim', agent: 'mock', resets: '3pm (Europe/Paris)' });
    expect(usage.limitsSeen[0].said).toContain("You've hit your limit");
    expect(usage.line).toMatch(/^usage unknown \(no usage source is configured.*\); usage limit met: worker lim wrote: "You've hit your limit · resets 3pm \(Europe\/Paris\)"$/);

    const next = await w.dispatch('after', 'MODE:report');
    expect(next.id).toBe('after');
    expect((next.warnings as string[]).some((x) => x.includes('worker lim wrote') && x.includes('same account')), JSON.stringify(next.warnings)).toBe(true);
  });

  it('an API error that is not a limit, and every other condition, feed nothing', () => {
    const base = { id: 'w', agent: 'claude', updatedAt: 0 };
    expect(limitsSeen([
      { ...base, condition: 'agent-error', problem: 'agent error: API Error: 500 Internal server error after 10 retries' },
      { ...base, condition: 'agent-error', problem: 'agent error: API Error: Repeated 529 Overloaded errors' },
      { ...base, condition: 'settled', problem: null },
      { ...base, condition: 'blocked', problem: "You've hit your limit" },
    ])).toEqual([]);
    for (const said of ['Claude usage limit reached. Your limit will reset at 5pm (America/New_York).', '5-hour limit reached ∙ resets 3am', "You've hit your weekly limit · resets Mon 9am", 'You are out of extra usage']) {
      expect(limitsSeen([{ ...base, condition: 'agent-error', problem: `agent error: ${said}` }]), said).toHaveLength(1);
    }
    expect(limitsSeen([{ ...base, condition: 'agent-error', problem: 'agent error: Claude usage limit reached. Your limit will reset at 5pm (America/New_York).' }])[0]!.resets).toBe('5pm (America/New_York)');
  });
});
