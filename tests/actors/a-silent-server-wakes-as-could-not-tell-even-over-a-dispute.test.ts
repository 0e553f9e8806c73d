/**
 * The Hand's wake names a worker whose terminal server stopped answering as "could not tell",
 * even when a dispute between its screen and its hooks was standing from before: a screen that
 * cannot be read disagrees with nothing, and the one condition rule (conditionOf) already puts
 * could-not-tell first. The wake put the dispute first, so a Hand woken for it never heard the
 * server had gone silent (the whole-workflow test's frozen server, under load).
 */
import { describe, expect, it } from 'vitest';
import { needOf } from '../../actors/needs-you.ts';
import type { WorkerViewLike } from '../../actors/fleet-api.ts';

const view = (over: Partial<WorkerViewLike>): WorkerViewLike => ({ id: 'w1', live: true, condition: 'blocked', awaitingInput: true, couldNotTell: null, disputed: null, ...over } as unknown as WorkerViewLike);

describe('a silent server wakes as could not tell, even over a dispute', () => {
  it('could not tell before disputed; disputed still wakes while the server answers', () => {
    const dispute = { screen: 'idle', hook: 'working' as const, since: 0 };
    const reason = 'the tmux server did not answer within 1 s';
    expect(needOf(view({ couldNotTell: reason, disputed: dispute }))).toBe('wait-failed');
    expect(needOf(view({ condition: 'busy', awaitingInput: false, couldNotTell: reason, disputed: dispute }))).toBe('wait-failed');
    expect(needOf(view({ condition: 'busy', awaitingInput: false, disputed: dispute }))).toBe('disputed');
  });
});
