/**
 * Teardown: Escape a menu, interrupt a running turn, empty a typed box, then /exit; each step
 * at most once per stop, with the screen read back in between, all under the stop deadline.
 */
import { assign, and } from 'xstate';
import { workerSetup } from './worker.setup.ts';
import { ESCAPE_SETTLE_MS, INTERRUPT_SETTLE_MS, CLEAR_SETTLE_MS, BOX_NOT_CLEARED } from './worker.constants.ts';

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
    DEADLINE: { guard: { type: 'isDeadline', params: { name: 'stop' } }, target: '.timedOut' },
    SEND: { actions: { type: 'refuse', params: ({ context, event }) => ({ id: context.id, requestId: event.requestId, code: 'stopping', box: '', kind: '' }) } },
    KEYS: { actions: { type: 'refuse', params: ({ context, event }) => ({ id: context.id, requestId: event.requestId, code: 'stopping', box: '', kind: '' }) } },
  },
  states: {
    begin: {
      tags: ['stopping'],
      // /exit typed at a menu is swallowed by it, and Enter would pick an option for the person.
      always: [{ guard: 'menuUp', target: 'escaping' }, { target: 'checkingTurn' }],
    },
    escaping: {
      tags: ['stopping'],
      invoke: {
        src: 'pressKey',
        input: ({ context }) => ({ id: context.id, paneId: context.paneId!, key: 'escape' as const }),
        onDone: { target: 'settlingAfterEscape', actions: assign({ escapeSettleAt: ({ event }) => event.output.at + ESCAPE_SETTLE_MS }) },
        onError: 'checkingTurn',
      },
    },
    settlingAfterEscape: {
      tags: ['stopping'],
      invoke: { src: 'deadline', input: ({ context }) => ({ at: context.escapeSettleAt ?? context.lastEventAt, name: 'escape-settle' as const }) },
      on: {
        SCREEN: { guard: 'menuGone', target: 'checkingTurn', actions: 'noteReading' },
        DEADLINE: [
          { guard: { type: 'isDeadline', params: { name: 'escape-settle' } }, target: 'checkingTurn' },
          { guard: { type: 'isDeadline', params: { name: 'stop' } }, target: 'timedOut' },
        ],
      },
    },
    /** An agent mid-turn does not act on /exit (Claude Code queues it): the turn is interrupted first. */
    checkingTurn: {
      tags: ['stopping'],
      always: [{ guard: 'turnRunning', target: 'interrupting' }, { target: 'checkingBox' }],
    },
    interrupting: {
      tags: ['stopping'],
      invoke: {
        src: 'pressKey',
        input: ({ context }) => ({ id: context.id, paneId: context.paneId!, key: 'escape' as const }),
        onDone: { target: 'awaitingInterrupt', actions: assign({ interruptSettleAt: ({ event }) => event.output.at + INTERRUPT_SETTLE_MS }) },
        onError: 'checkingBox',
      },
    },
    /** Bounded: a turn that keeps working past the bound still gets its /exit (the stop deadline decides). */
    awaitingInterrupt: {
      tags: ['stopping'],
      invoke: { src: 'deadline', input: ({ context }) => ({ at: context.interruptSettleAt ?? context.lastEventAt, name: 'interrupt-settle' as const }) },
      on: {
        SCREEN: { guard: 'turnOver', target: 'checkingBox', actions: 'noteReading' },
        DEADLINE: [
          { guard: { type: 'isDeadline', params: { name: 'interrupt-settle' } }, target: 'checkingBox' },
          { guard: { type: 'isDeadline', params: { name: 'stop' } }, target: 'timedOut' },
        ],
      },
    },
    /**
     * Typed text in the box (an interrupted prompt put back, §6.7, or a half-typed line) would
     * have /exit appended to it and be submitted as a prompt. /exit discards the box anyway,
     * so teardown, and only teardown, empties it first (docs/2026-11-30-teardown-of-a-busy-worker.md).
     */
    checkingBox: {
      tags: ['stopping'],
      always: [{ guard: 'boxHasTypedText', target: 'clearingBox' }, { target: 'exiting' }],
    },
    clearingBox: {
      tags: ['stopping'],
      invoke: {
        src: 'pressKey',
        input: ({ context }) => ({ id: context.id, paneId: context.paneId!, key: 'ctrl-u' as const }),
        onDone: { target: 'awaitingClear', actions: assign({ clearSettleAt: ({ event }) => event.output.at + CLEAR_SETTLE_MS }) },
        onError: { target: 'timedOut', actions: assign({ problem: BOX_NOT_CLEARED }) },
      },
    },
    /** /exit goes out only once the box is read back without the text; otherwise it is withheld. */
    awaitingClear: {
      tags: ['stopping'],
      invoke: { src: 'deadline', input: ({ context }) => ({ at: context.clearSettleAt ?? context.lastEventAt, name: 'clear-settle' as const }) },
      on: {
        SCREEN: { guard: 'boxCleared', target: 'exiting', actions: 'noteReading' },
        DEADLINE: [
          { guard: 'clearFailed', target: 'timedOut', actions: assign({ problem: BOX_NOT_CLEARED }) },
          { guard: { type: 'isDeadline', params: { name: 'clear-settle' } }, target: 'exiting' },
          { guard: { type: 'isDeadline', params: { name: 'stop' } }, target: 'timedOut' },
        ],
      },
    },
    exiting: {
      tags: ['stopping'],
      invoke: {
        src: 'submitPrompt',
        // Teardown is exempt from the box guard: /exit displaces a rendered suggestion.
        input: ({ context }) => ({ id: context.id, paneId: context.paneId!, text: '/exit', allowNonEmptyBox: true }),
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
