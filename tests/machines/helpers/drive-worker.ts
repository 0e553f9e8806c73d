/**
 * The worker machine in process, with the real deadline actor (actors/worker-logic.ts) on an
 * injected clock and ports that answer at once: what decides here is the machine and its timers.
 */
import { createActor, fromPromise } from 'xstate';
import type { LandingOutcome, LandingSummary } from '../../../machines/worker.types.ts';
import { workerMachine } from '../../../machines/worker.machine.ts';
import { deadlineActor } from '../../../actors/worker-logic.ts';
import { stagePath } from '../../../actors/worker-view.ts';
import type { ScreenReading } from '../../../io/screen/types.ts';
import type { Clock } from '../../../actors/ports.ts';

export const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

export function driveWorker(clock: Clock, o: { stallMs: number; unclassifiedMs: number }) {
  const at = () => ({ at: clock.now() });
  const logic = workerMachine.provide({
    actors: {
      prepareWorktree: fromPromise(async () => {}),
      seedAgent: fromPromise(async () => {}),
      spawnPane: fromPromise(async () => ({ paneId: '%1', ...at() })),
      submitPrompt: fromPromise(async () => at()),
      pressKey: fromPromise(async () => at()),
      checkReport: fromPromise<{ exists: boolean }, { id: string; path: string }>(async () => ({ exists: false })),
      readReport: fromPromise<{ waitingOn: string | null }, { id: string; path: string }>(async () => ({ waitingOn: null })),
      landWork: fromPromise<LandingOutcome, { id: string; landing: LandingSummary }>(async () => { throw new Error('no landing here'); }),
      cleanUpAfterLanding: fromPromise<{ problem: string | null }, { id: string; paneId: string | null }>(async () => ({ problem: null })),
      deadline: deadlineActor(clock),
    },
  });
  const actor = createActor(logic, {
    input: { id: 'p1', backend: 'tmux', agent: 'mock', reportPath: '/r.md', firstPrompt: 'brief for p1', stallMs: o.stallMs, unclassifiedMs: o.unclassifiedMs, at: clock.now() },
  });
  actor.start();
  return {
    actor,
    stage: () => stagePath(actor.getSnapshot().value),
    context: () => actor.getSnapshot().context,
    screen: (reading: ScreenReading) => actor.send({ type: 'SCREEN', reading, at: clock.now() }),
    stop: (timeoutMs: number) => actor.send({ type: 'STOP', at: clock.now(), timeoutMs }),
  };
}
