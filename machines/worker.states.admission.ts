/**
 * Worker states from dispatch to a live pane: the dispatch gate (admission, gate) and the
 * three preparation steps (worktree, agent seed, pane). A STOP before a pane exists needs no
 * teardown; one while the pane is being made waits for it and then tears it down.
 */
import { assign } from 'xstate';
import { workerSetup } from './worker.setup.ts';
import type { WorkerTag } from '../contract/vocabulary.ts';

/** Transient: the dispatch gate is decided by the input (the project's yolo flag, read by the daemon). */
export const admissionState = workerSetup.createStateConfig({
  tags: ['making', 'no-worktree'],
  always: [{ guard: 'briefGateRequired', target: 'gate' }, { target: 'preparing' }],
});

/** The dispatch gate: the staged brief waits for a person. No worktree, branch or pane exists yet. */
export const gateState = workerSetup.createStateConfig({
  initial: 'awaitingBriefApproval',
  states: {
    awaitingBriefApproval: {
      tags: ['gate', 'brief-gate', 'no-worktree'],
      on: {
        APPROVE: { target: '#worker.preparing', actions: assign({ rejection: null }) },
        REJECT: { target: '#worker.rejected', actions: 'noteRejection' },
        // Nothing to tear down: no pane was ever made.
        STOP: '#worker.stopped',
      },
    },
  },
});

/**
 * A preparation step before any pane exists: run the port `src`; when it is done go to `next`;
 * an error fails the worker with the step named; a STOP needs no teardown.
 */
function preparationStep(src: 'prepareWorktree' | 'seedAgent', next: 'seeding' | 'spawning', step: string, tags: WorkerTag[]) {
  return workerSetup.createStateConfig({
    tags,
    invoke: {
      src,
      input: ({ context }) => ({ id: context.id }),
      onDone: next,
      onError: { target: 'failed', actions: assign({ problem: ({ event }) => `${step}: ${String(event.error)}` }) },
    },
    on: { STOP: 'stopped' },
  });
}

export const preparingState = preparationStep('prepareWorktree', 'seeding', 'prepare', ['making', 'no-worktree']);

export const seedingState = preparationStep('seedAgent', 'spawning', 'seed', ['making']);

export const spawningState = workerSetup.createStateConfig({
  tags: ['making', 'making-pane'],
  invoke: {
    src: 'spawnPane',
    input: ({ context }) => ({ id: context.id }),
    onDone: [
      { guard: 'stopRequested', target: 'teardown', actions: assign({ paneId: ({ event }) => event.output.paneId }) },
      // The start-up stall clock runs from the pane's birth (starting.waiting arms it).
      { target: 'starting', actions: assign({ paneId: ({ event }) => event.output.paneId, lastEventAt: ({ event }) => event.output.at, stallAt: ({ event, context }) => event.output.at + context.stallMs }) },
    ],
    onError: { target: 'failed', actions: assign({ problem: ({ event }) => `spawn: ${String(event.error)}` }) },
  },
  // The pane may be half made: finish spawning, then tear it down properly.
  on: { STOP: { actions: assign({ stopRequested: true, stopAt: ({ event }) => event.at + event.timeoutMs }) } },
});
