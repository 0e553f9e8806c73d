/** The landing gate and the landing itself (entered from done by LAND). */
import { assign } from 'xstate';
import { workerSetup } from './worker.setup.ts';
import { LANDING_STOP_TIMEOUT_MS } from './worker.constants.ts';

/**
 * The landing gate and the landing itself. The screen keeps being read (a menu that comes up
 * shows in status) but does not close the gate: the approval is checked against the branch
 * head the person saw, so later work is never landed under an earlier approval.
 */
export const landingState = workerSetup.createStateConfig({
  initial: 'awaitingApproval',
  on: {
    SCREEN: { actions: 'noteReading' },
    // The agent leaving does not undo its work: it still lands, and there is nothing left to stop.
    EXITED: { actions: assign({ paneExited: true, exitCode: ({ event }) => event.code, lastEventAt: ({ event }) => event.at }) },
    PANE_MISSING: [{ guard: 'serverUp', actions: assign({ paneExited: true }) }, { actions: assign({ problem: 'wait-failed' }) }],
  },
  states: {
    awaitingApproval: {
      tags: ['gate', 'landing-gate', 'landable'],
      on: {
        // The person's explicit word on the repository's agent settings travels with the approval.
        APPROVE: {
          target: 'applying',
          actions: assign({
            landing: ({ context, event }) => ({ ...context.landing!, approvedBy: 'person' as const, ...(event.acceptedAgentSettings ? { agentSettingsAccepted: event.acceptedAgentSettings } : {}) }),
          }),
        },
        REJECT: { target: '#worker.done', actions: 'noteRejection' },
        // `hand land` again: fresh evidence replaces what the gate shows (yolo lands it now).
        LAND: [
          { guard: 'yoloLanding', target: 'applying', actions: 'openLanding' },
          { target: 'awaitingApproval', reenter: true, actions: 'openLanding' },
        ],
      },
    },
    applying: {
      tags: ['landing'],
      invoke: {
        src: 'landWork',
        input: ({ context }) => ({ id: context.id, landing: context.landing! }),
        onDone: [
          { guard: 'keepWorker', target: '#worker.done', actions: assign({ landed: ({ event }) => event.output, landing: null, problem: ({ event }) => event.output.keptBecause ?? 'landed; the worker was kept' }) },
          { guard: 'paneExited', target: 'cleaning', actions: assign({ landed: ({ event }) => event.output }) },
          { target: '#worker.teardown', actions: assign({ landed: ({ event }) => event.output, stopAt: ({ event }) => event.output.at + LANDING_STOP_TIMEOUT_MS }) },
        ],
        // Refused or failed: nothing was landed; the gate closes and the worker is done again.
        onError: {
          target: '#worker.done',
          actions: assign({
            landing: null,
            landingFailure: ({ event, context }) => {
              const e = event.error as { code?: unknown; message?: unknown };
              return { code: typeof e?.code === 'string' ? e.code : 'landing-failed', message: typeof e?.message === 'string' ? e.message : String(event.error), at: context.lastEventAt };
            },
          }),
        },
      },
      // Landing is under way: a stop now would race it. Teardown follows on its own.
      on: { STOP: {} },
    },
    /** The agent has left: close its pane, remove the worktree, prune. */
    cleaning: {
      tags: ['landing'],
      invoke: {
        src: 'cleanUpAfterLanding',
        input: ({ context }) => ({ id: context.id, paneId: context.paneId }),
        onDone: { target: '#worker.landed', actions: assign({ problem: ({ event }) => event.output.problem }) },
        onError: { target: '#worker.landed', actions: assign({ problem: ({ event }) => `cleanup: ${String(event.error)}` }) },
      },
      on: { STOP: {} },
    },
  },
});
