/**
 * Teardown: Escape a menu, interrupt a running turn, empty a typed box, then /exit; each step
 * at most once per stop, with the screen read back in between, all under the stop deadline.
 */
import { assign, and } from 'xstate';
import { workerSetup } from './worker.setup.ts';
import type { WorkerContext } from './worker.types.ts';
import { named } from './worker.deadlines.ts';
import { ESCAPE_SETTLE_MS, INTERRUPT_SETTLE_MS, CLEAR_SETTLE_MS, BOX_NOT_CLEARED } from './worker.constants.ts';

type SettleField = 'escapeSettleAt' | 'interruptSettleAt' | 'clearSettleAt';
type SettleDeadline = 'escape-settle' | 'interrupt-settle' | 'clear-settle';

/**
 * Teardown's one step shape, used three times: press one key, then give the screen until an
 * absolute time (kept in context, so a restore keeps it) to show the key took; the screen
 * showing it, or that time passing, moves on to `next`; the stop deadline still ends it all.
 */
function pressThenSettle(o: {
  key: 'escape' | 'ctrl-u';
  field: SettleField;
  settleMs: number;
  deadline: SettleDeadline;
  /** The screen shows the key took (e.g. the menu is gone). */
  took: 'menuGone' | 'turnOver' | 'boxCleared';
  /** Where the awaiting state goes once settled. */
  next: string;
  awaiting: string;
  /** Where a failed key press goes, and what it says there (nothing: the step is only skipped). */
  onError: { target: string; problem?: string };
  /** Checked first when a deadline fires: the key did not take, and the step gives up. */
  failedIf?: { guard: 'clearFailed'; problem: string };
}) {
  const failed = o.failedIf ? [{ guard: o.failedIf.guard, target: 'timedOut', actions: { type: 'noteProblem' as const, params: { problem: o.failedIf.problem } } }] : [];
  const press = workerSetup.createStateConfig({
    tags: ['stopping'],
    invoke: {
      src: 'pressKey',
      input: ({ context }) => ({ id: context.id, paneId: context.paneId!, key: o.key }),
      onDone: { target: o.awaiting, actions: assign(({ event }) => ({ [o.field]: event.output.at + o.settleMs }) as Partial<WorkerContext>) },
      onError: o.onError.problem === undefined ? o.onError.target : { target: o.onError.target, actions: { type: 'noteProblem' as const, params: { problem: o.onError.problem } } },
    },
  });
  const awaiting = workerSetup.createStateConfig({
    tags: ['stopping'],
    invoke: { src: 'deadline', input: ({ context }) => ({ at: context[o.field] ?? context.lastEventAt, name: o.deadline }) },
    on: {
      SCREEN: { guard: o.took, target: o.next, actions: 'noteReading' },
      DEADLINE: [
        ...failed,
        { guard: named(o.deadline), target: o.next },
        { guard: named('stop'), target: 'timedOut' },
      ],
    },
  });
  return { press, awaiting };
}

const escape = pressThenSettle({ key: 'escape', field: 'escapeSettleAt', settleMs: ESCAPE_SETTLE_MS, deadline: 'escape-settle', took: 'menuGone', next: 'checkingTurn', awaiting: 'settlingAfterEscape', onError: { target: 'checkingTurn' } });
const interrupt = pressThenSettle({ key: 'escape', field: 'interruptSettleAt', settleMs: INTERRUPT_SETTLE_MS, deadline: 'interrupt-settle', took: 'turnOver', next: 'checkingBox', awaiting: 'awaitingInterrupt', onError: { target: 'checkingBox' } });
const clear = pressThenSettle({ key: 'ctrl-u', field: 'clearSettleAt', settleMs: CLEAR_SETTLE_MS, deadline: 'clear-settle', took: 'boxCleared', next: 'exiting', awaiting: 'awaitingClear',
  onError: { target: 'timedOut', problem: BOX_NOT_CLEARED },
  failedIf: { guard: 'clearFailed', problem: BOX_NOT_CLEARED },
});

export const teardownState = workerSetup.createStateConfig({
  initial: 'begin',
  invoke: { src: 'deadline', input: ({ context }) => ({ at: context.stopAt ?? context.lastEventAt, name: 'stop' as const }) },
  on: {
    SCREEN: { actions: 'noteReading' },
    EXITED: [
      { guard: 'landingApplied', target: 'landing.cleaning', actions: assign({ exitCode: ({ event }) => event.code }) },
      { target: 'stopped', actions: assign({ exitCode: ({ event }) => event.code }) },
    ],
    // Already stopping: a second STOP must not type /exit twice (timedOut below retries).
    STOP: {},
    PANE_MISSING: [
      { guard: and(['serverUp', 'landingApplied']), target: 'landing.cleaning' },
      { guard: 'serverUp', target: 'stopped' },
      { actions: assign({ problem: 'wait-failed' }) },
    ],
    DEADLINE: { guard: named('stop'), target: '.timedOut' },
    SEND: { actions: { type: 'refuse', params: ({ context, event }) => ({ id: context.id, requestId: event.requestId, code: 'stopping', box: '', kind: '' }) } },
    KEYS: { actions: { type: 'refuse', params: ({ context, event }) => ({ id: context.id, requestId: event.requestId, code: 'stopping', box: '', kind: '' }) } },
  },
  states: {
    begin: {
      tags: ['stopping'],
      // /exit typed at a menu is swallowed by it, and Enter would pick an option for the person.
      always: [{ guard: 'menuUp', target: 'escaping' }, { target: 'checkingTurn' }],
    },
    escaping: escape.press,
    settlingAfterEscape: escape.awaiting,
    /** An agent mid-turn does not act on /exit (Claude Code queues it): the turn is interrupted first. */
    checkingTurn: {
      tags: ['stopping'],
      always: [{ guard: 'turnRunning', target: 'interrupting' }, { target: 'checkingBox' }],
    },
    interrupting: interrupt.press,
    /** Bounded: a turn that keeps working past the bound still gets its /exit (the stop deadline decides). */
    awaitingInterrupt: interrupt.awaiting,
    /**
     * Typed text in the box (an interrupted prompt put back, §6.7, or a half-typed line) would
     * have /exit appended to it and be submitted as a prompt. /exit discards the box anyway,
     * so teardown, and only teardown, empties it first (docs/2026-11-30-teardown-of-a-busy-worker.md).
     */
    checkingBox: {
      tags: ['stopping'],
      always: [{ guard: 'boxHasTypedText', target: 'clearingBox' }, { target: 'exiting' }],
    },
    clearingBox: clear.press,
    /** /exit goes out only once the box is read back without the text; otherwise it is withheld. */
    awaitingClear: clear.awaiting,
    exiting: {
      tags: ['stopping'],
      invoke: {
        src: 'submitPrompt',
        // Teardown is exempt from the box guard: /exit displaces a rendered suggestion.
        input: ({ context }) => ({ id: context.id, paneId: context.paneId!, text: '/exit', allowNonEmptyBox: true, teardown: true }),
        onDone: 'awaitingExit',
        onError: 'awaitingExit',
      },
    },
    awaitingExit: { tags: ['stopping'] },
    /** /exit did not end the process in time: the pane must not be reused; STOP retries. */
    timedOut: {
      tags: ['stuck'],
      on: { STOP: { target: '#worker.teardown', reenter: true, actions: assign({ stopAt: ({ event }) => event.at + event.timeoutMs, problem: null }) } },
    },
  },
});
