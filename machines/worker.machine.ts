/**
 * The worker machine: one AI coding agent in one worktree and one terminal pane, from
 * preparation to exit. PURE: every side effect is a named placeholder (actors and actions
 * below) that the wiring in actors/ replaces with `provide()`. Time enters only through
 * events (`at` fields), so the machine can be replayed under any clock.
 *
 * Rules it encodes (reference §3.7, §4.2, §2.13):
 * - stall = a readable screen whose fingerprint has not changed for stallMs; an unreadable
 *   screen is `blind`, never stalled, and does not move the change time;
 * - `gone` only on an exit event (or a herdr pane missing twice with the server up);
 * - a startup dialog is `starting.blocked` and is never answered by the machine;
 * - the first prompt is typed only after the first idle, empty-box screen has settled
 *   (STARTUP_SETTLE_MS) and the box is still idle and empty;
 * - `settled` is not `done`: done needs the report file, and a pointer to an open decision
 *   makes the worker `parked` instead;
 * - teardown presses Escape first when a menu is up, Escape again to interrupt a running turn
 *   (and waits for it to stop), ctrl-u when typed text sits in the box (an interrupted prompt is
 *   put back there, §6.7), then submits /exit (box guard bypassed). Each step happens at most
 *   once per stop, one key per port call, with the screen read back in between.
 * - the two gates are states (docs/2026-11-30-gates-as-actor-states.md): a non-yolo dispatch
 *   rests in `gate.awaitingBriefApproval` before anything is created (APPROVE → preparing,
 *   REJECT → final `rejected`); `hand land` moves a done worker to `landing.awaitingApproval`
 *   (yolo skips the wait), APPROVE lands through the `landWork` port, then the worker's own
 *   teardown stops it, `landing.cleaning` closes the pane and removes the worktree, and it
 *   ends `landed`; REJECT goes back to done with the reason kept.
 * Deadlines are absolute times in context, armed by the invoked `deadline` actor, so a
 * restored worker re-arms them at their original time (XState does not persist `after`).
 */
import { setup, assign, and, fromCallback, fromPromise, not, stateIn, type EventObject } from 'xstate';
import type { Key } from '../io/terminal/types.ts';
import type {
  WorkerContext, WorkerEvent, WorkerInput, DeadlineName,
  DeliverTextParams, DeliverKeyParams, RefuseParams, LandingOutcome, LandingSummary,
} from './worker.types.ts';
import {
  isReadable, isBlocked, isIdle, isBusy, boxIsEmpty, boxReadyForBrief, boxHoldsPrompt, isTurnRunning, boxHoldsTypedText,
} from './worker.guards.ts';

/** How long the screen gets to settle after the teardown Escape before /exit goes out. */
export const ESCAPE_SETTLE_MS = 800;
/**
 * How long an interrupted turn gets to stop `working` before teardown goes on to /exit anyway.
 * The agent answers Escape within a frame or two; the bound only stops a wedged one from
 * holding up the stop (whose own deadline still decides the outcome).
 */
export const INTERRUPT_SETTLE_MS = 5_000;
/** How long the box gets to show empty after teardown's ctrl-u before /exit is withheld. */
export const CLEAR_SETTLE_MS = 800;
/** The stop gave up without typing /exit: ctrl-u did not empty the box, and /exit would have been appended to it. */
export const BOX_NOT_CLEARED = 'teardown: the input box still held text after ctrl-u; /exit was not typed';
/**
 * How long our first prompt may sit in the box before its Enter counts as lost. A TUI that is
 * still busy painting takes a moment to act on an Enter; pressing again too early would send a
 * second Enter after a first one that was merely slow.
 */
export const RESUBMIT_AFTER_MS = 2_000;
/**
 * How long an idle screen with an empty box must hold unchanged before briefing counts as
 * settled without a `working` screen ever seen. Real Claude Code keeps redrawing its startup
 * screen, and right after Enter there is a moment with the box empty and no spinner yet: a
 * changed idle screen alone is not proof that the turn ran.
 */
export const BRIEF_QUIET_MS = 1_800;
/**
 * How long the first idle, empty-box screen gets before the first prompt is typed. Real Claude
 * Code keeps redrawing its start screen for about a second after the box first appears, and a
 * prompt typed into it then can be lost entirely (reference §5, §8.1: a dialog opening then
 * drops keys). Measured from that first screen, not re-armed by its redraws.
 */
export const STARTUP_SETTLE_MS = 1_000;
/** Enters pressed again for a first prompt left in the box before a person is asked. */
export const MAX_BRIEF_RETRIES = 3;
export const PROMPT_NOT_SUBMITTED = 'first prompt not submitted';
/** How long the agent gets to leave by /exit after its work landed (the stop deadline of that teardown). */
export const LANDING_STOP_TIMEOUT_MS = 30_000;
/** Bumped whenever a persisted worker snapshot would no longer restore. */
export const WORKER_MACHINE_VERSION = 1;

const placeholder = (name: string) => async (): Promise<never> => {
  throw new Error(`worker machine: actor '${name}' must be provided by the wiring`);
};

type ScreenEv = Extract<WorkerEvent, { type: 'SCREEN' }>;
const screenOf = (e: WorkerEvent): ScreenEv | null => (e.type === 'SCREEN' ? e : null);

export const workerMachine = setup({
  types: {
    context: {} as WorkerContext,
    events: {} as WorkerEvent,
    input: {} as WorkerInput,
  },
  actors: {
    prepareWorktree: fromPromise<void, { id: string }>(placeholder('prepareWorktree')),
    seedAgent: fromPromise<void, { id: string }>(placeholder('seedAgent')),
    spawnPane: fromPromise<{ paneId: string; at: number }, { id: string }>(placeholder('spawnPane')),
    submitPrompt: fromPromise<{ at: number }, { id: string; paneId: string; text: string; allowNonEmptyBox: boolean }>(
      placeholder('submitPrompt'),
    ),
    pressKey: fromPromise<{ at: number }, { id: string; paneId: string; key: Key }>(placeholder('pressKey')),
    checkReport: fromPromise<{ exists: boolean }, { id: string; path: string }>(placeholder('checkReport')),
    readReport: fromPromise<{ waitingOn: string | null }, { id: string; path: string }>(placeholder('readReport')),
    /** Performs the approved landing per the project's posture (re-checking the evidence first). */
    landWork: fromPromise<LandingOutcome, { id: string; landing: LandingSummary }>(placeholder('landWork')),
    /** After the agent left: close its pane, `git worktree remove`, prune. Never --force. */
    cleanUpAfterLanding: fromPromise<{ problem: string | null }, { id: string; paneId: string | null }>(placeholder('cleanUpAfterLanding')),
    /** Sends DEADLINE {name, at} back at the absolute time `at` (input is persisted: plain data). */
    deadline: fromCallback<EventObject, { at: number; name: DeadlineName }>(() => () => {}),
  },
  actions: {
    // Person commands. The wiring performs the guarded I/O and answers the caller.
    deliverText: (_, _params: DeliverTextParams) => {},
    deliverKey: (_, _params: DeliverKeyParams) => {},
    refuse: (_, _params: RefuseParams) => {},
    clearProblem: assign({ problem: null }),
    /** LAND: the evidence becomes the gate's content; yolo records itself as the approver. */
    openLanding: assign(({ event }) => {
      if (event.type !== 'LAND') return {};
      return { landing: { ...event.landing, approvedBy: event.yolo ? ('yolo' as const) : null }, rejection: null, landingFailure: null, problem: null };
    }),
    noteRejection: assign(({ event, context }) => {
      if (event.type !== 'REJECT') return {};
      const gate = context.landing ? ('landing' as const) : ('brief' as const);
      return { rejection: { gate, reason: event.reason, at: event.at }, landing: null };
    }),
    noteReading: assign(({ event, context }) => {
      const e = screenOf(event);
      if (!e) return {};
      return { reading: e.reading, lastEventAt: e.at, ...(e.reading.readable ? {} : { fingerprint: context.fingerprint }) };
    }),
    /** A readable screen that differs (or a fresh start of work): the quiet clock restarts. */
    noteChange: assign(({ event, context }) => {
      const e = screenOf(event);
      if (!e) return {};
      return {
        reading: e.reading,
        lastEventAt: e.at,
        fingerprint: e.reading.fingerprint,
        lastChangeAt: e.at,
        stallAt: e.at + context.stallMs,
      };
    }),
  },
  guards: {
    readable: ({ event }) => isReadable(screenOf(event)?.reading ?? null),
    unreadable: ({ event }) => !isReadable(screenOf(event)?.reading ?? null),
    awaitingInput: ({ event }) => isBlocked(screenOf(event)?.reading ?? null),
    idle: ({ event }) => isIdle(screenOf(event)?.reading ?? null),
    idleReadyForBrief: ({ event }) => {
      const r = screenOf(event)?.reading ?? null;
      return isIdle(r) && boxReadyForBrief(r);
    },
    /** The settle time ran out and the latest reading is still idle with an empty live box. */
    startupSettled: ({ context, event }) =>
      event.type === 'DEADLINE' && event.name === 'startup-settle' && isIdle(context.reading) && boxReadyForBrief(context.reading),
    busy: ({ event }) => isBusy(screenOf(event)?.reading ?? null),
    busyChanged: ({ event, context }) => {
      const e = screenOf(event);
      return !!e && isBusy(e.reading) && e.reading.fingerprint !== context.fingerprint;
    },
    busyUnchanged: ({ event, context }) => {
      const e = screenOf(event);
      return !!e && isBusy(e.reading) && e.reading.fingerprint === context.fingerprint;
    },
    idleChanged: ({ event, context }) => {
      const e = screenOf(event);
      return !!e && isIdle(e.reading) && e.reading.fingerprint !== context.fingerprint;
    },
    /**
     * The turn ran between two reads: idle again on a screen that differs from the one we briefed,
     * with the live box shown EMPTY — our prompt left it. A box not visible proves nothing.
     */
    idleAfterBrief: ({ event, context }) => {
      const e = screenOf(event);
      return !!e && isIdle(e.reading) && boxReadyForBrief(e.reading) &&
        context.briefFingerprint !== null && e.reading.fingerprint !== context.briefFingerprint;
    },
    /** While the quiet period runs: the same idle, empty-box screen again (a repaint, no change). */
    idleAfterBriefUnchanged: ({ event, context }) => {
      const e = screenOf(event);
      return !!e && isIdle(e.reading) && boxReadyForBrief(e.reading) && e.reading.fingerprint === context.fingerprint;
    },
    /** The quiet period ran out on the idle, empty-box screen it started on (nothing else came). */
    briefQuietHeld: ({ context, event }) =>
      event.type === 'DEADLINE' && event.name === 'brief-quiet' && isIdle(context.reading) &&
      boxReadyForBrief(context.reading) && context.reading!.fingerprint === context.fingerprint &&
      context.fingerprint !== context.briefFingerprint,
    /** The box still holds the first prompt we typed: its Enter was lost (or not acted on yet). */
    promptInBox: ({ event, context }) => {
      const r = screenOf(event)?.reading ?? null;
      return !isBlocked(r) && boxHoldsPrompt(r, context.firstPrompt);
    },
    /** Text in the box that is not ours: never pressed, never settled over. */
    otherTextInBox: ({ event }) => {
      const r = screenOf(event)?.reading ?? null;
      return isReadable(r) && !isBlocked(r) && !boxIsEmpty(r);
    },
    resubmitDue: ({ context, event }) =>
      event.type === 'DEADLINE' && event.name === 'resubmit' && !isBlocked(context.reading) &&
      boxHoldsPrompt(context.reading, context.firstPrompt) && (context.briefRetries ?? 0) < MAX_BRIEF_RETRIES,
    /** Latest reading: a menu or dialog is up (teardown must Escape it first). */
    menuUp: ({ context }) => isBlocked(context.reading),
    /** Latest reading: a turn runs (an agent mid-turn does not execute /exit; teardown interrupts it). */
    turnRunning: ({ context }) => isTurnRunning(context.reading),
    /** A readable screen that no longer says working: the interrupt took. */
    turnOver: ({ event }) => {
      const r = screenOf(event)?.reading ?? null;
      return isReadable(r) && !isTurnRunning(r);
    },
    /** Latest reading: typed text in the box, which /exit would be appended to. */
    boxHasTypedText: ({ context }) => boxHoldsTypedText(context.reading),
    /** The settle time after ctrl-u ran out with the text still in the box. */
    clearFailed: ({ context, event }) =>
      event.type === 'DEADLINE' && event.name === 'clear-settle' && boxHoldsTypedText(context.reading),
    /** A readable screen whose box no longer holds typed text: ctrl-u took. */
    boxCleared: ({ event }) => {
      const r = screenOf(event)?.reading ?? null;
      return isReadable(r) && !boxHoldsTypedText(r);
    },
    menuGone: ({ event }) => {
      const r = screenOf(event)?.reading ?? null;
      return isReadable(r) && !isBlocked(r);
    },
    promptBoxEmpty: ({ context }) => boxIsEmpty(context.reading),
    sendAllowed: ({ context, event }) =>
      event.type === 'SEND' && (event.allowNonEmptyBox || boxIsEmpty(context.reading)),
    /** Only a FIRST key of Enter is guarded: later keys answer a menu the earlier keys moved through. */
    keyAllowed: ({ context, event }) =>
      event.type === 'KEYS' && (event.key !== 'enter' || event.allowNonEmptyBox || boxIsEmpty(context.reading)),
    stallDue: ({ context, event }) =>
      event.type === 'DEADLINE' && event.name === 'stall' && context.stallAt !== null &&
      event.at >= context.stallAt && isReadable(context.reading) && !isBlocked(context.reading),
    isDeadline: ({ event }, params: { name: DeadlineName }) => event.type === 'DEADLINE' && event.name === params.name,
    serverUp: ({ event }) => event.type === 'PANE_MISSING' && event.serverUp,
    stopRequested: ({ context }) => context.stopRequested,
    noPane: ({ context }) => context.paneId === null,
    briefGateRequired: ({ context }) => context.briefGate === true,
    yoloLanding: ({ event }) => event.type === 'LAND' && event.yolo === true,
    landingApplied: ({ context }) => !!context.landed,
    paneExited: ({ context }) => context.paneExited === true || context.paneId === null,
    keepWorker: ({ event }) => (event as { output?: LandingOutcome }).output?.tearDown === false,
    reportExists: ({ event, context }) => {
      const out = (event as { output?: { exists?: boolean } }).output;
      return out?.exists === true && !isBlocked(context.reading);
    },
    parkedOnDecision: ({ event }) => {
      const out = (event as { output?: { waitingOn?: string | null } }).output;
      return typeof out?.waitingOn === 'string' && out.waitingOn !== '';
    },
  },
}).createMachine({
  id: 'worker',
  context: ({ input }) => ({
    id: input.id,
    backend: input.backend,
    agent: input.agent,
    reportPath: input.reportPath,
    firstPrompt: input.firstPrompt,
    stallMs: input.stallMs,
    paneId: null,
    reading: null,
    lastEventAt: input.at,
    fingerprint: '',
    lastChangeAt: null,
    stallAt: null,
    briefFingerprint: null,
    briefRetries: 0,
    startupSettleAt: null,
    resubmitAt: null,
    briefQuietAt: null,
    escapeSettleAt: null,
    interruptSettleAt: null,
    clearSettleAt: null,
    stopAt: null,
    stopRequested: false,
    reportExists: null,
    waitingOn: null,
    exitCode: null,
    problem: null,
    briefGate: input.briefGate === true,
    landing: null,
    landed: null,
    rejection: null,
    landingFailure: null,
    paneExited: false,
  }),
  initial: 'admission',
  on: {
    EXITED: { target: '.gone', actions: assign({ exitCode: ({ event }) => event.code, lastEventAt: ({ event }) => event.at }) },
    PANE_MISSING: [
      { guard: 'serverUp', target: '.gone' },
      // Server down makes every pane look absent: could-not-tell, never gone.
      { target: '.waitFailed', actions: assign({ problem: 'wait-failed' }) },
    ],
    LOST: { target: '.lost', actions: assign({ problem: 'pty process died with the daemon' }) },
    // Person commands, accepted wherever a pane exists (briefing and teardown refuse them below).
    SEND: [
      { guard: 'noPane', actions: { type: 'refuse', params: ({ context, event }) => ({ id: context.id, requestId: event.requestId, code: 'not-accepting-input', box: '', kind: '' }) } },
      { guard: 'sendAllowed', actions: { type: 'deliverText', params: ({ context, event }) => ({ id: context.id, paneId: context.paneId!, text: event.text, allowNonEmptyBox: event.allowNonEmptyBox, requestId: event.requestId }) } },
      { actions: { type: 'refuse', params: ({ context, event }) => ({ id: context.id, requestId: event.requestId, code: 'prompt-box-not-empty', box: context.reading?.promptBox ?? '', kind: context.reading?.promptBoxKind ?? 'typed' }) } },
    ],
    KEYS: [
      { guard: 'noPane', actions: { type: 'refuse', params: ({ context, event }) => ({ id: context.id, requestId: event.requestId, code: 'not-accepting-input', box: '', kind: '' }) } },
      { guard: 'keyAllowed', actions: { type: 'deliverKey', params: ({ context, event }) => ({ id: context.id, paneId: context.paneId!, key: event.key, allowNonEmptyBox: event.allowNonEmptyBox, requestId: event.requestId }) } },
      { actions: { type: 'refuse', params: ({ context, event }) => ({ id: context.id, requestId: event.requestId, code: 'prompt-box-not-empty', box: context.reading?.promptBox ?? '', kind: context.reading?.promptBoxKind ?? 'typed' }) } },
    ],
    STOP: { target: '.teardown', actions: assign({ stopAt: ({ event }) => event.at + event.timeoutMs }) },
  },
  states: {
    /** Transient: the dispatch gate is decided by the input (the project's yolo flag, read by the daemon). */
    admission: {
      always: [{ guard: 'briefGateRequired', target: 'gate' }, { target: 'preparing' }],
    },
    /** The dispatch gate: the staged brief waits for a person. No worktree, branch or pane exists yet. */
    gate: {
      initial: 'awaitingBriefApproval',
      states: {
        awaitingBriefApproval: {
          on: {
            APPROVE: { target: '#worker.preparing', actions: assign({ rejection: null }) },
            REJECT: { target: '#worker.rejected', actions: 'noteRejection' },
            // Nothing to tear down: no pane was ever made.
            STOP: '#worker.stopped',
          },
        },
      },
    },
    preparing: {
      invoke: {
        src: 'prepareWorktree',
        input: ({ context }) => ({ id: context.id }),
        onDone: 'seeding',
        onError: { target: 'failed', actions: assign({ problem: ({ event }) => `prepare: ${String(event.error)}` }) },
      },
      on: { STOP: 'stopped' },
    },
    seeding: {
      invoke: {
        src: 'seedAgent',
        input: ({ context }) => ({ id: context.id }),
        onDone: 'spawning',
        onError: { target: 'failed', actions: assign({ problem: ({ event }) => `seed: ${String(event.error)}` }) },
      },
      on: { STOP: 'stopped' },
    },
    spawning: {
      invoke: {
        src: 'spawnPane',
        input: ({ context }) => ({ id: context.id }),
        onDone: [
          { guard: 'stopRequested', target: 'teardown', actions: assign({ paneId: ({ event }) => event.output.paneId }) },
          { target: 'starting', actions: assign({ paneId: ({ event }) => event.output.paneId, lastEventAt: ({ event }) => event.output.at }) },
        ],
        onError: { target: 'failed', actions: assign({ problem: ({ event }) => `spawn: ${String(event.error)}` }) },
      },
      // The pane may be half made: finish spawning, then tear it down properly.
      on: { STOP: { actions: assign({ stopRequested: true, stopAt: ({ event }) => event.at + event.timeoutMs }) } },
    },
    starting: {
      initial: 'waiting',
      on: {
        SCREEN: [
          { guard: 'awaitingInput', target: '.blocked', actions: 'noteReading' },
          // Not typed yet: the start screen is still being redrawn (see settling).
          { guard: 'idleReadyForBrief', target: '.settling', actions: 'noteChange' },
          // A box holding text is never briefed into; the worker waits for it to empty.
          { target: '.waiting', actions: 'noteReading' },
        ],
        // SEND/KEYS at the root let the person answer a startup dialog by hand; the machine never does.
      },
      states: {
        waiting: {},
        blocked: {},
        /**
         * The first idle, empty-box screen: the first prompt waits STARTUP_SETTLE_MS from it
         * (an absolute deadline, kept across redraws and restores) and is typed only if the
         * latest reading then is still idle with an empty box. A dialog meanwhile is
         * `blocked`, a box holding text or any other screen is `waiting` (the parent's
         * transitions), so the deadline never types into either.
         */
        settling: {
          entry: assign({ startupSettleAt: ({ context }) => context.lastEventAt + STARTUP_SETTLE_MS }),
          invoke: { src: 'deadline', input: ({ context }) => ({ at: context.startupSettleAt ?? context.lastEventAt, name: 'startup-settle' as const }) },
          on: {
            // A redraw of the start screen: noted (briefing compares against it), deadline unchanged.
            SCREEN: { guard: 'idleReadyForBrief', actions: 'noteChange' },
            DEADLINE: [
              { guard: 'startupSettled', target: '#worker.briefing' },
              { guard: { type: 'isDeadline', params: { name: 'startup-settle' } }, target: 'waiting' },
            ],
          },
        },
      },
    },
    briefing: {
      initial: 'sending',
      on: {
        // Refused while our prompt is on its way; once it is stuck (blocked) the person may act.
        SEND: { guard: not(stateIn('#worker.briefing.blocked')), actions: { type: 'refuse', params: ({ context, event }) => ({ id: context.id, requestId: event.requestId, code: 'briefing', box: '', kind: '' }) } },
        KEYS: { guard: not(stateIn('#worker.briefing.blocked')), actions: { type: 'refuse', params: ({ context, event }) => ({ id: context.id, requestId: event.requestId, code: 'briefing', box: '', kind: '' }) } },
        SCREEN: [
          { guard: 'awaitingInput', target: '#worker.running.blocked', actions: ['noteChange', 'clearProblem'] },
          // Our text still in the box is checked before the spinner: it was not submitted.
          { guard: 'promptInBox', target: '.unsubmitted', actions: 'noteReading' },
          { guard: 'busy', target: '#worker.running.working', actions: ['noteChange', 'clearProblem'] },
          { guard: 'otherTextInBox', target: '.blocked', actions: 'noteReading' },
          // Not settled yet: the screen must hold still first (a spinner or a dialog may follow).
          { guard: 'idleAfterBrief', target: '.quieting', actions: 'noteChange' },
          { actions: 'noteReading' },
        ],
      },
      states: {
        sending: {
          invoke: {
            src: 'submitPrompt',
            input: ({ context }) => ({ id: context.id, paneId: context.paneId!, text: context.firstPrompt, allowNonEmptyBox: false }),
            onDone: { target: 'confirming', actions: assign({ briefFingerprint: ({ context }) => context.fingerprint }) },
            onError: { target: '#worker.failed', actions: assign({ problem: ({ event }) => `brief: ${String(event.error)}` }) },
          },
          on: { SCREEN: { actions: 'noteReading' } },
        },
        confirming: {},
        /**
         * Idle with the box empty on a screen that differs from the one we briefed, and no
         * `working` seen: the turn may have run between two reads, or Claude Code has not drawn
         * its spinner yet. Settled only if this screen holds unchanged for BRIEF_QUIET_MS; any
         * change starts the wait again, work or a dialog wins (the parent's transitions).
         */
        quieting: {
          entry: assign({ briefQuietAt: ({ context }) => context.lastEventAt + BRIEF_QUIET_MS }),
          invoke: { src: 'deadline', input: ({ context }) => ({ at: context.briefQuietAt ?? context.lastEventAt, name: 'brief-quiet' as const }) },
          on: {
            SCREEN: [
              { guard: 'idleAfterBriefUnchanged', actions: 'noteReading' },
              // Re-entering re-arms the deadline from this screen's time.
              { guard: 'idleAfterBrief', target: 'quieting', reenter: true, actions: 'noteChange' },
            ],
            DEADLINE: [
              { guard: 'briefQuietHeld', target: '#worker.settled' },
              // Something else showed meanwhile (no box, an unreadable screen): keep confirming.
              { guard: { type: 'isDeadline', params: { name: 'brief-quiet' } }, target: 'confirming' },
            ],
          },
        },
        /** Our prompt sits in the box: give a slow TUI its moment, then press Enter again. */
        unsubmitted: {
          entry: assign({ resubmitAt: ({ context }) => context.lastEventAt + RESUBMIT_AFTER_MS }),
          invoke: { src: 'deadline', input: ({ context }) => ({ at: context.resubmitAt ?? context.lastEventAt, name: 'resubmit' as const }) },
          on: {
            // A repaint with our text still there keeps the deadline where it is.
            SCREEN: { guard: 'promptInBox', actions: 'noteReading' },
            DEADLINE: [
              { guard: 'resubmitDue', target: 'resubmitting' },
              { guard: { type: 'isDeadline', params: { name: 'resubmit' } }, target: 'blocked' },
            ],
          },
        },
        /**
         * Enter once more, through the port, past the box guard. The guard exists so that text
         * nobody wrote (a suggestion) or a person's half-typed line is never submitted under our
         * name; this box holds exactly the text this worker typed a moment ago into a box it saw
         * empty, so the Enter submits what was meant to be submitted. Any other text → blocked.
         */
        resubmitting: {
          invoke: {
            src: 'pressKey',
            input: ({ context }) => ({ id: context.id, paneId: context.paneId!, key: 'enter' as const }),
            onDone: { target: 'confirming', actions: assign({ briefRetries: ({ context }) => (context.briefRetries ?? 0) + 1 }) },
            onError: 'blocked',
          },
          on: { SCREEN: { actions: 'noteReading' } },
        },
        /** The prompt did not go in (or other text sits in the box): a person must look. Never settled. */
        blocked: {
          entry: assign({ problem: PROMPT_NOT_SUBMITTED }),
          on: {
            SCREEN: [
              { guard: 'awaitingInput', target: '#worker.running.blocked', actions: ['noteChange', 'clearProblem'] },
              { guard: 'busy', target: '#worker.running.working', actions: ['noteChange', 'clearProblem'] },
              { actions: 'noteReading' },
            ],
          },
        },
      },
    },
    running: {
      initial: 'working',
      on: {
        SCREEN: [
          { guard: 'unreadable', target: '.blind', actions: 'noteReading' },
          { guard: 'awaitingInput', target: '.blocked', actions: 'noteReading' },
          { guard: 'idle', target: 'settled', actions: 'noteChange' },
          // Targeting a child from here re-enters it, which re-arms the stall deadline.
          { guard: 'busyChanged', target: '.working', actions: 'noteChange' },
          { actions: 'noteReading' },
        ],
      },
      states: {
        working: {
          invoke: { src: 'deadline', input: ({ context }) => ({ at: context.stallAt ?? context.lastEventAt, name: 'stall' as const }) },
          on: {
            DEADLINE: { guard: 'stallDue', target: 'stalled' },
            SCREEN: { guard: 'busyUnchanged', actions: 'noteReading' },
          },
        },
        blocked: {
          // Leaving a dialog is fresh work: time spent waiting on a person is not quiet time.
          on: { SCREEN: { guard: 'busyUnchanged', target: 'working', actions: 'noteChange' } },
        },
        stalled: {
          on: { SCREEN: { guard: 'busyUnchanged', actions: 'noteReading' } },
        },
        blind: {
          // Same screen as before the blind spell: the quiet time keeps counting from the last change.
          on: { SCREEN: { guard: 'busyUnchanged', target: 'working', actions: 'noteReading' } },
        },
      },
    },
    settled: {
      initial: 'checking',
      on: {
        SCREEN: [
          { guard: 'awaitingInput', target: 'running.blocked', actions: 'noteReading' },
          { guard: 'busyChanged', target: 'running.working', actions: 'noteChange' },
          { actions: 'noteReading' },
        ],
      },
      states: {
        checking: {
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
          on: { SCREEN: { guard: 'idleChanged', target: 'checking', actions: 'noteChange' } },
        },
      },
    },
    reporting: {
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
    },
    done: {
      on: {
        SCREEN: [
          { guard: 'awaitingInput', target: 'running.blocked', actions: 'noteReading' },
          { guard: 'busyChanged', target: 'running.working', actions: 'noteChange' },
          { actions: 'noteReading' },
        ],
        LAND: [
          { guard: 'yoloLanding', target: 'landing.applying', actions: 'openLanding' },
          { target: 'landing.awaitingApproval', actions: 'openLanding' },
        ],
      },
    },
    /**
     * The landing gate and the landing itself. The screen keeps being read (a menu that comes up
     * shows in status) but does not close the gate: the approval is checked against the branch
     * head the person saw, so later work is never landed under an earlier approval.
     */
    landing: {
      initial: 'awaitingApproval',
      on: {
        SCREEN: { actions: 'noteReading' },
        // The agent leaving does not undo its work: it still lands, and there is nothing left to stop.
        EXITED: { actions: assign({ paneExited: true, exitCode: ({ event }) => event.code, lastEventAt: ({ event }) => event.at }) },
        PANE_MISSING: [{ guard: 'serverUp', actions: assign({ paneExited: true }) }, { actions: assign({ problem: 'wait-failed' }) }],
      },
      states: {
        awaitingApproval: {
          on: {
            APPROVE: { target: 'applying', actions: assign({ landing: ({ context }) => ({ ...context.landing!, approvedBy: 'person' as const }) }) },
            REJECT: { target: '#worker.done', actions: 'noteRejection' },
            // `hand land` again: fresh evidence replaces what the gate shows (yolo lands it now).
            LAND: [
              { guard: 'yoloLanding', target: 'applying', actions: 'openLanding' },
              { target: 'awaitingApproval', reenter: true, actions: 'openLanding' },
            ],
          },
        },
        applying: {
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
          invoke: {
            src: 'cleanUpAfterLanding',
            input: ({ context }) => ({ id: context.id, paneId: context.paneId }),
            onDone: { target: '#worker.landed', actions: assign({ problem: ({ event }) => event.output.problem }) },
            onError: { target: '#worker.landed', actions: assign({ problem: ({ event }) => `cleanup: ${String(event.error)}` }) },
          },
          on: { STOP: {} },
        },
      },
    },
    parked: {
      on: {
        SCREEN: [
          { guard: 'awaitingInput', target: 'running.blocked', actions: 'noteReading' },
          { guard: 'busyChanged', target: 'running.working', actions: 'noteChange' },
          { actions: 'noteReading' },
        ],
      },
    },
    teardown: {
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
          // /exit typed at a menu is swallowed by it, and Enter would pick an option for the person.
          always: [{ guard: 'menuUp', target: 'escaping' }, { target: 'checkingTurn' }],
        },
        escaping: {
          invoke: {
            src: 'pressKey',
            input: ({ context }) => ({ id: context.id, paneId: context.paneId!, key: 'escape' as const }),
            onDone: { target: 'settlingAfterEscape', actions: assign({ escapeSettleAt: ({ event }) => event.output.at + ESCAPE_SETTLE_MS }) },
            onError: 'checkingTurn',
          },
        },
        settlingAfterEscape: {
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
          always: [{ guard: 'turnRunning', target: 'interrupting' }, { target: 'checkingBox' }],
        },
        interrupting: {
          invoke: {
            src: 'pressKey',
            input: ({ context }) => ({ id: context.id, paneId: context.paneId!, key: 'escape' as const }),
            onDone: { target: 'awaitingInterrupt', actions: assign({ interruptSettleAt: ({ event }) => event.output.at + INTERRUPT_SETTLE_MS }) },
            onError: 'checkingBox',
          },
        },
        /** Bounded: a turn that keeps working past the bound still gets its /exit (the stop deadline decides). */
        awaitingInterrupt: {
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
          always: [{ guard: 'boxHasTypedText', target: 'clearingBox' }, { target: 'exiting' }],
        },
        clearingBox: {
          invoke: {
            src: 'pressKey',
            input: ({ context }) => ({ id: context.id, paneId: context.paneId!, key: 'ctrl-u' as const }),
            onDone: { target: 'awaitingClear', actions: assign({ clearSettleAt: ({ event }) => event.output.at + CLEAR_SETTLE_MS }) },
            onError: { target: 'timedOut', actions: assign({ problem: BOX_NOT_CLEARED }) },
          },
        },
        /** /exit goes out only once the box is read back without the text; otherwise it is withheld. */
        awaitingClear: {
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
          invoke: {
            src: 'submitPrompt',
            // Teardown is exempt from the box guard: /exit displaces a rendered suggestion.
            input: ({ context }) => ({ id: context.id, paneId: context.paneId!, text: '/exit', allowNonEmptyBox: true }),
            onDone: 'awaitingExit',
            onError: 'awaitingExit',
          },
        },
        awaitingExit: {},
        /** /exit did not end the process in time: the pane must not be reused; STOP retries. */
        timedOut: {
          on: { STOP: { target: '#worker.teardown', reenter: true, actions: assign({ stopAt: ({ event }) => event.at + event.timeoutMs, problem: null }) } },
        },
      },
    },
    /**
     * A pane could not be found and the host could not say why (its server is down or did not
     * answer): could-not-tell, never gone. A readable screen brings the worker back.
     */
    waitFailed: {
      on: {
        SCREEN: [
          { guard: 'unreadable', actions: 'noteReading' },
          { guard: 'awaitingInput', target: 'running.blocked', actions: ['noteChange', 'clearProblem'] },
          { guard: 'busy', target: 'running.working', actions: ['noteChange', 'clearProblem'] },
          { guard: 'idleAfterBrief', target: 'settled', actions: ['noteChange', 'clearProblem'] },
          { actions: 'noteReading' },
        ],
      },
    },
    stopped: { type: 'final' },
    gone: { type: 'final' },
    failed: { type: 'final' },
    lost: { type: 'final' },
    /** Landed (and torn down unless `problem` says what was kept). */
    landed: { type: 'final' },
    /** The brief was rejected at the dispatch gate: the brief and the reason stay; nothing else was made. */
    rejected: { type: 'final' },
  },
});

export type WorkerMachine = typeof workerMachine;
