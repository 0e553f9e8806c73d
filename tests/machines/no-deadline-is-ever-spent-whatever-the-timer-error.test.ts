/**
 * Property (issue 21, item 2): with timers that fire up to a few ms early or late and repaints
 * of the same screen at random moments, every deadline the worker machine arms leads where it
 * should — never before its time, and no later than its time plus a bound — and none is spent
 * by a guard that was false when it fired. The states are generated from the machine: every
 * state that invokes `deadline`, with every deadline name it arms, needs a recipe below, so a
 * new deadline cannot be left out.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { AnyStateNode } from 'xstate';
import { workerMachine, STARTUP_SETTLE_MS } from '../../machines/worker.machine.ts';
import type { WorkerContext } from '../../machines/worker.types.ts';
import { reading } from '../actors/helpers/scripted-host.ts';
import { JitterClock } from './helpers/jitter-clock.ts';
import { driveWorker, flush } from './helpers/drive-worker.ts';

const EARLY = 5;
const LATE = 5;
/** How late past its time a deadline may lead on: the timer's lateness plus a re-arm or two. */
const BOUND = LATE + 10;
const STALL_MS = 10_000;
const UNCLASSIFIED_MS = 3_000;
const T0 = 1_000_000;

const R = {
  splash: reading({ state: 'unknown', promptBox: null, promptBoxKind: null, fingerprint: 'f-splash' }),
  idle: reading({ fingerprint: 'f-idle' }),
  idle2: reading({ fingerprint: 'f-idle2' }),
  typed: reading({ fingerprint: 'f-typed', promptBox: 'half a thought', promptBoxKind: 'typed' }),
  ours: reading({ fingerprint: 'f-ours', promptBox: 'brief for p1', promptBoxKind: 'typed' }),
  work: reading({ state: 'working', fingerprint: 'f-work' }),
  unknown: reading({ state: 'unknown', promptBox: null, promptBoxKind: null, fingerprint: 'f-unknown' }),
  menu: reading({ state: 'blocked', awaitingInput: true, blockedReason: 'permission', promptBox: null, promptBoxKind: null, fingerprint: 'f-menu' }),
};
type Drive = ReturnType<typeof driveWorker>;
type Step = (d: Drive, c: JitterClock) => void | Promise<void>;
const show = (r: (typeof R)[keyof typeof R]): Step => (d) => { d.screen(r); };
const wait = (ms: number): Step => (_d, c) => c.advanceTo(c.now() + ms);
const stop: Step = (d) => { d.stop(60_000); };

/** Each deadline's absolute time, read from the context the way a person would check it. */
const TIME_OF: Record<string, (c: WorkerContext) => number | null> = {
  stall: (c) => c.stallAt,
  unclassified: (c) => c.unclassifiedAt,
  'startup-settle': (c) => c.startupSettleAt,
  'settle-quiet': (c) => (c.lastChangeAt === null ? null : c.lastChangeAt + 500),
  resubmit: (c) => c.resubmitAt,
  'brief-quiet': (c) => c.briefQuietAt,
  'brief-confirm': (c) => c.briefConfirmAt,
  'escape-settle': (c) => c.escapeSettleAt,
  'interrupt-settle': (c) => c.interruptSettleAt,
  'clear-settle': (c) => c.clearSettleAt,
  stop: (c) => c.stopAt,
};

const working = [show(R.splash), show(R.idle), wait(STARTUP_SETTLE_MS + 20), show(R.work)];
interface Recipe { unclassifiedMs?: number; steps: Step[]; at: string; repaint: (typeof R)[keyof typeof R]; leadsTo: (stage: string) => boolean; check?: (c: WorkerContext) => void }
const is = (s: string) => (x: string) => x === s;
const RECIPES: Record<string, Recipe> = {
  'starting.waiting:stall': { steps: [show(R.splash)], at: 'starting.waiting', repaint: R.splash, leadsTo: is('starting.stalled') },
  'starting.occupied:startup-settle': {
    steps: [show(R.typed)], at: 'starting.occupied', repaint: R.typed, leadsTo: is('starting.boxHeld'),
    check: (c) => expect(c.problem).toContain('half a thought'),
  },
  'starting.settling:startup-settle': { steps: [show(R.idle)], at: 'starting.settling', repaint: R.idle, leadsTo: (s) => s.startsWith('briefing.') },
  'briefing.confirming:brief-confirm': { steps: [show(R.idle), wait(STARTUP_SETTLE_MS + 20)], at: 'briefing.confirming', repaint: R.idle, leadsTo: is('briefing.blocked') },
  'briefing.quieting:brief-quiet': { steps: [show(R.idle), wait(STARTUP_SETTLE_MS + 20), show(R.idle2)], at: 'briefing.quieting', repaint: R.idle2, leadsTo: (s) => s.startsWith('settled') },
  'briefing.unsubmitted:resubmit': { steps: [show(R.idle), wait(STARTUP_SETTLE_MS + 20), show(R.ours)], at: 'briefing.unsubmitted', repaint: R.ours, leadsTo: is('briefing.confirming') },
  'running.working:stall': { steps: working, at: 'running.working', repaint: R.work, leadsTo: is('running.stalled') },
  'running.finishing:settle-quiet': { steps: [...working, show(R.idle2)], at: 'running.finishing', repaint: R.idle2, leadsTo: (s) => s.startsWith('settled') },
  // The could-not-tell bound is shorter than the stall time, so it leads first.
  'running.unsure:unclassified': { steps: [...working, show(R.unknown)], at: 'running.unsure', repaint: R.unknown, leadsTo: is('running.unclassified') },
  // With a could-not-tell bound longer than the stall time, the stall leads.
  'running.unsure:stall': {
    unclassifiedMs: 2 * STALL_MS, steps: [...working, show(R.unknown)], at: 'running.unsure', repaint: R.unknown, leadsTo: is('running.stalled'),
  },
  'teardown:stop': { steps: [show(R.splash), stop], at: 'teardown.awaitingExit', repaint: R.splash, leadsTo: is('teardown.timedOut') },
  'teardown.settlingAfterEscape:escape-settle': { steps: [...working, show(R.menu), stop], at: 'teardown.settlingAfterEscape', repaint: R.menu, leadsTo: is('teardown.awaitingExit') },
  'teardown.awaitingInterrupt:interrupt-settle': { steps: [...working, stop], at: 'teardown.awaitingInterrupt', repaint: R.work, leadsTo: is('teardown.awaitingExit') },
  'teardown.awaitingClear:clear-settle': { steps: [...working, show(R.typed), stop], at: 'teardown.awaitingClear', repaint: R.typed, leadsTo: is('teardown.timedOut') },
};

/** Every (state, deadline name) the machine arms, read from its definition. */
function armedDeadlines(): string[] {
  const probe = { context: { lastEventAt: 0, stallMs: 1, unclassifiedMs: 1, lastChangeAt: 0 } as unknown as WorkerContext, event: { type: 'probe' }, self: {} };
  const out: string[] = [];
  const walk = (node: AnyStateNode) => {
    for (const inv of node.invoke) {
      if (inv.src !== 'deadline') continue;
      const input = typeof inv.input === 'function' ? (inv.input as (a: unknown) => { name: string })(probe) : (inv.input as { name: string });
      out.push(`${node.path.join('.')}:${input.name}`);
    }
    for (const child of Object.values(node.states)) walk(child);
  };
  walk(workerMachine.root as AnyStateNode);
  return out;
}

describe('no deadline is ever spent, whatever the timer error', () => {
  it('every deadline the machine arms has a recipe here', () => {
    expect(armedDeadlines().filter((k) => !RECIPES[k])).toEqual([]);
  });

  for (const key of armedDeadlines()) {
    const recipe = RECIPES[key];
    if (!recipe) continue;
    const name = key.split(':')[1]!;
    it(`${key}: leads on at its time (never early, at most ${BOUND} ms late) with timers ±${EARLY} ms and random repaints`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: -EARLY, max: LATE }), { minLength: 1, maxLength: 50 }),
          fc.array(fc.double({ min: 0, max: 0.98, noNaN: true }), { maxLength: 4 }),
          async (errors, repaints) => {
            let i = 0;
            const clock = new JitterClock(T0, () => errors[i++ % errors.length]!, flush);
            const d = driveWorker(clock, { stallMs: STALL_MS, unclassifiedMs: recipe.unclassifiedMs ?? UNCLASSIFIED_MS });
            try {
              await flush();
              for (const step of recipe.steps) {
                await step(d, clock);
                await flush();
              }
              expect(d.stage(), `recipe for ${key} did not reach ${recipe.at}`).toBe(recipe.at);
              const due = TIME_OF[name]!(d.context());
              expect(due, `${name} has no time in context`).not.toBeNull();
              const from = clock.now();
              for (const f of [...repaints].sort((a, b) => a - b)) {
                await clock.advanceTo(from + Math.floor(f * (due! - from - EARLY - 1)));
                d.screen(recipe.repaint);
                await flush();
              }
              await clock.advanceTo(due! - 1);
              expect(d.stage(), `${name} led on before its time`).toBe(recipe.at);
              await clock.advanceTo(due! + BOUND);
              expect(recipe.leadsTo(d.stage()), `${name} at ${recipe.at}: ${BOUND} ms after its time the worker is ${d.stage()}`).toBe(true);
              recipe.check?.(d.context());
            } finally {
              d.actor.stop();
            }
          },
        ),
        { numRuns: 40 },
      );
    });
  }
});
