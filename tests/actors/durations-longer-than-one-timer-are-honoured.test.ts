/**
 * A duration a person gives is honoured however long it is: Node turns a timer delay of 2^31 ms
 * (~24.8 days) or more into 1 ms, which made `hand wait --timeout 597h` time out at once and a
 * stall threshold of weeks report a stall immediately. Fake timers follow Node's rule, so the
 * failure shows here without waiting.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, setup } from 'xstate';
import { waitForWorker } from '../../actors/wait-report.ts';
import { deadlineActor } from '../../actors/worker-logic.ts';
import { monotonicWallClock } from '../../actors/ports.ts';
import { parseDuration } from '../../cli/durations.ts';
import { MAX_TIMER_MS } from '../../io/time/long-timer.ts';
import type { FleetHostApi, WorkerViewLike } from '../../actors/fleet-api.ts';

const HOUR = 3_600_000;

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

function busyFleet(): FleetHostApi {
  const view = { id: 'w1', stage: 'running.working', state: 'working', live: true, awaitingInput: false, blockedReason: null, promptBox: null, readable: true, lastActivity: '', lastChangeAt: null } as unknown as WorkerViewLike;
  return { view: () => view, subscribe: () => () => {} } as unknown as FleetHostApi;
}

describe('durations longer than one timer are honoured', () => {
  it('hand wait --timeout 597h does not time out before 597 hours', async () => {
    let ended: string | null = null;
    void waitForWorker(busyFleet(), 'w1', 'any', 597 * HOUR).then((r) => {
      ended = r.reason;
    });
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS + 1000);
    expect(ended, 'still waiting after one timer span').toBeNull();
    await vi.advanceTimersByTimeAsync(597 * HOUR - MAX_TIMER_MS - 2000);
    expect(ended, 'still waiting just before 597h').toBeNull();
    await vi.advanceTimersByTimeAsync(2000);
    expect(ended).toBe('timeout');
  });

  it('a machine deadline weeks away (a stall threshold) fires then, not at once', async () => {
    const at = Date.now() + 40 * 24 * HOUR;
    // The daemon's clock, made under the fake timers (the shared one is anchored at its first use,
    // which in a worker that ran other files was on the real clock).
    const machine = setup({ actors: { deadline: deadlineActor(monotonicWallClock()) } }).createMachine({
      initial: 'armed',
      states: {
        armed: { invoke: { src: 'deadline', input: { at, name: 'stall' as const } }, on: { DEADLINE: 'fired' } },
        fired: { type: 'final' },
      },
    });
    const actor = createActor(machine).start();
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS + 1000);
    expect(actor.getSnapshot().value).toBe('armed');
    await vi.advanceTimersByTimeAsync(at - Date.now());
    expect(actor.getSnapshot().value).toBe('fired');
    actor.stop();
  });

  it('a duration past the maximum is refused naming the flag and the maximum', () => {
    expect(parseDuration('597h', '--timeout')).toBe(597 * HOUR);
    expect(() => parseDuration('9000h', '--timeout')).toThrow(/--timeout "9000h" is longer than the maximum of 8760h/);
  });

  it('a zero duration is refused in the words of the flag, not a wire name', () => {
    for (const zero of ['0', '0s', '0.0001']) expect(() => parseDuration(zero, '--timeout')).toThrow(/--timeout "0[^"]*" is not a positive duration/);
  });
});
