/**
 * Worker states while the agent works and after its turn: running (stall detection),
 * settled and reporting (done needs the report file), done, parked on a decision, and
 * waitFailed (could-not-tell). Every resting state goes back to running on new work.
 */
import { assign } from 'xstate';
import { blockedByAQuestion, workerSetup } from './worker.setup.ts';
import { armDeadline, named, reached } from './worker.deadlines.ts';

/**
 * A resting worker (settled, done, parked) on a new screen: a dialog blocks it, fresh work sends
 * it back to running, anything else is only noted. One list, shared by the three states.
 */
const newScreenWakesTheWorker = [
  { guard: 'awaitingInput', target: '#worker.running.blocked', actions: 'noteReading' },
  { guard: 'agentErrorShown', target: '#worker.running.agentError', actions: ['noteChange', 'noteAgentError'] },
  { guard: 'busyChanged', target: '#worker.running.working', actions: 'noteChange' },
  // Background work the agent said still runs (its Stop came after the rest began): never finished.
  { guard: 'backgroundRunning', target: '#worker.running.working', actions: 'noteReading' },
  { actions: 'noteReading' },
] as const;

export const runningState = workerSetup.createStateConfig({
  initial: 'working',
  on: {
    SCREEN: [
      { guard: 'unreadable', target: '.blind', actions: 'noteReading' },
      blockedByAQuestion,
      // A turn that ended in an API error or a usage limit is never settled (agentError).
      { guard: 'agentErrorShown', target: '.agentError', actions: ['noteChange', 'noteAgentError'] },
      // The agent said its turn ended and this screen agrees: settled now, no quiet time.
      { guard: 'turnEndWitnessed', target: '#worker.settled', actions: 'noteChange' },
      // Idle is not settled yet: the screen must hold still for SETTLE_QUIET_MS (finishing).
      { guard: 'idle', target: '.finishing', actions: 'noteChange' },
      // Could-not-tell is timed on its own (bound: unclassifiedMs), apart from the stall clock.
      { guard: 'unclassified', target: '.unsure', actions: 'noteChange' },
      // Targeting a child from here re-enters it, which re-arms the stall deadline.
      { guard: 'busyChanged', target: '.working', actions: 'noteChange' },
      { actions: 'noteReading' },
    ],
  },
  states: {
    working: {
      tags: ['busy', 'working'],
      invoke: armDeadline('stall'),
      on: {
        DEADLINE: [
          { guard: reached('stall'), target: 'stalled' },
          // Early, or the quiet time moved on: armed again, never spent (issue 21).
          { guard: named('stall'), target: 'working', reenter: true },
        ],
        // An unclassified screen goes to unsure through the parent, as a change: noted as one
        // here, its own repaints would each count as a change there and push the stall back.
        SCREEN: { guard: 'busyUnchanged', actions: 'noteReading' },
      },
    },
    /**
     * The turn looks over (idle), but a screen that flips between a finished turn and a spinner
     * must not be called settled: settled once this idle screen has held for SETTLE_QUIET_MS
     * (repaints allowed; a changed idle screen starts the wait again through the parent), or at
     * once when the agent's own turn-end word comes for this screen (the witness).
     */
    finishing: {
      tags: ['busy'],
      invoke: armDeadline('settle-quiet'),
      on: {
        DEADLINE: [
          // The latest reading was of a pane still pouring: its next reading (one comes when the
          // pour ends) starts the quiet time, none runs out before it.
          { guard: 'readingPouring' },
          { guard: reached('settle-quiet'), target: '#worker.settled' },
          { guard: named('settle-quiet'), target: 'finishing', reenter: true },
        ],
        SCREEN: [
          // The agent's Stop listed background work still running: the quiet time is not its end.
          { guard: 'backgroundRunning', target: 'working', actions: 'noteReading' },
          { guard: 'agentErrorShown', target: 'agentError', actions: ['noteChange', 'noteAgentError'] },
          // The turn-end word reached us while the quiet time ran: the rest of it is not waited out.
          { guard: 'turnEndWitnessed', target: '#worker.settled', actions: 'noteReading' },
          // Read while the pane pours, or the first reading after a pour: the quiet time starts again.
          { guard: 'idlePouringOrAfterPour', target: 'finishing', reenter: true, actions: 'noteChange' },
          { guard: 'idleUnchanged', actions: 'noteReading' },
          { guard: 'idleChanged', target: 'finishing', reenter: true, actions: 'noteChange' },
        ],
      },
    },
    /**
     * The turn ended in an API error (its retries spent) or a usage limit, and the agent is back
     * at an empty box: a condition of its own that wakes a person, never settled, never done.
     * New work (a person's prompt) or an idle screen without the error leaves it (the parent).
     */
    agentError: {
      tags: ['agent-error'],
      on: { SCREEN: { guard: 'agentErrorShown', actions: ['noteReading', 'noteAgentError'] } },
      exit: 'clearProblem',
    },
    /** A readable screen that could not be told, for less than the bound so far. */
    unsure: {
      // Could not tell yet, within the bound: still at work as far as anyone knows.
      tags: ['busy'],
      invoke: [armDeadline('stall'), armDeadline('unclassified')],
      on: {
        DEADLINE: [
          { guard: reached('stall'), target: 'stalled' },
          { guard: reached('unclassified'), target: 'unclassified' },
          // Either one early or moved: both armed again at their times in context.
          { guard: named('stall'), target: 'unsure', reenter: true },
          { guard: named('unclassified'), target: 'unsure', reenter: true },
        ],
        SCREEN: [
          { guard: 'classifiedUnchanged', target: 'working', actions: 'noteReading' },
          { guard: 'busyUnchanged', actions: 'noteReading' },
        ],
      },
    },
    /** Could not tell for longer than the bound: a condition of its own that wakes a person. */
    unclassified: {
      tags: ['unclassified'],
      on: {
        SCREEN: [
          { guard: 'classifiedUnchanged', target: 'working', actions: 'noteReading' },
          { guard: 'unclassifiedChanged', actions: 'noteChange' },
          { guard: 'unclassified', actions: 'noteReading' },
        ],
      },
    },
    blocked: {
      tags: ['blocked'],
      // Leaving a dialog is fresh work: time spent waiting on a person is not quiet time.
      on: { SCREEN: { guard: 'busyUnchanged', target: 'working', actions: 'noteChange' } },
    },
    stalled: {
      tags: ['stalled'],
      on: { SCREEN: { guard: 'busyUnchanged', actions: 'noteReading' } },
    },
    blind: {
      tags: ['busy'],
      // Same screen as before the blind spell: the quiet time keeps counting from the last change.
      on: { SCREEN: { guard: 'busyUnchanged', target: 'working', actions: 'noteReading' } },
    },
  },
});

export const settledState = workerSetup.createStateConfig({
  initial: 'checking',
  on: {
    SCREEN: newScreenWakesTheWorker,
  },
  states: {
    checking: {
      tags: ['checking'],
      invoke: {
        src: 'checkReport',
        input: ({ context }) => ({ id: context.id, path: context.reportPath }),
        onDone: [
          { guard: 'reportExists', target: '#worker.reporting', actions: assign({ reportExists: true }) },
          { target: 'unconfirmed', actions: assign({ reportExists: ({ event }) => event.output.exists }) },
        ],
        onError: { target: 'unconfirmed', actions: assign({ reportExists: null, problem: ({ event }) => `report check: ${String(event.error)}` }) },
      },
    },
    /** Settled with no report (brief not followed?) or with a menu up: suspicious, not done. */
    unconfirmed: {
      tags: ['settled'],
      on: { SCREEN: { guard: 'idleChanged', target: 'checking', actions: 'noteChange' } },
    },
  },
});

export const reportingState = workerSetup.createStateConfig({
  tags: ['checking'],
  invoke: {
    src: 'readReport',
    input: ({ context }) => ({ id: context.id, path: context.reportPath }),
    onDone: [
      { guard: 'parkedOnDecision', target: 'parked', actions: assign({ waitingOn: ({ event }) => event.output.waitingOn }) },
      { target: 'done', actions: assign({ waitingOn: null }) },
    ],
    // A failed read is never "not parked": stay settled and say why.
    onError: { target: 'settled.unconfirmed', actions: assign({ problem: ({ event }) => `report read: ${String(event.error)}` }) },
  },
  on: { SCREEN: { actions: 'noteReading' } },
});

export const doneState = workerSetup.createStateConfig({
  tags: ['settled', 'landable'],
  on: {
    SCREEN: newScreenWakesTheWorker,
    LAND: [
      { guard: 'yoloLanding', target: 'landing.applying', actions: 'openLanding' },
      { target: 'landing.awaitingApproval', actions: 'openLanding' },
    ],
  },
});

export const parkedState = workerSetup.createStateConfig({
  tags: ['settled', 'parked'],
  on: {
    SCREEN: newScreenWakesTheWorker,
    // The answer went in before a restart: at work on it, and settled again by the screen (an
    // idle one after the quiet window) — a turn that ended unseen is never parked for ever.
    ANSWER_IN: { target: '#worker.running' },
  },
});

/**
 * A pane could not be found and the host could not say why (its server is down or did not
 * answer): could-not-tell, never gone. A readable screen brings the worker back.
 */
export const waitFailedState = workerSetup.createStateConfig({
  tags: ['wait-failed'],
  on: {
    SCREEN: [
      { guard: 'unreadable', actions: 'noteReading' },
      { guard: 'awaitingInput', target: 'running.blocked', actions: ['noteChange', 'clearProblem'] },
      { guard: 'busy', target: 'running.working', actions: ['noteChange', 'clearProblem'] },
      { guard: 'idleAfterBrief', target: 'settled', actions: ['noteChange', 'clearProblem'] },
      { actions: 'noteReading' },
    ],
  },
});
