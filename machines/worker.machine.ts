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
 * - a first prompt that left the box but showed no sign of being taken up (no `working`, no
 *   dialog, no changed idle screen) within BRIEF_CONFIRM_MS blocks the worker with a problem:
 *   it never rests in `briefing.confirming`, a stage no `hand wait` wakes for;
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
 *
 * Split by phase (one concept per file): worker.setup.ts holds the types, actors, actions and
 * guards; worker.states.*.ts hold the state subtrees; this file assembles them, in the order
 * the diagrams and the model tests walk, with the root transitions that apply everywhere.
 */
import { assign } from 'xstate';
import { workerSetup } from './worker.setup.ts';
import { admissionState, gateState, preparingState, seedingState, spawningState } from './worker.states.admission.ts';
import { startingState, briefingState } from './worker.states.starting.ts';
import { runningState, settledState, reportingState, doneState, parkedState, waitFailedState } from './worker.states.running.ts';
import { landingState } from './worker.states.landing.ts';
import { teardownState } from './worker.states.teardown.ts';
import { UNCLASSIFIED_MS } from './worker.constants.ts';

export * from './worker.constants.ts';

export const workerMachine = workerSetup.createMachine({
  id: 'worker',
  // What the worker was given, then what it has learnt (none of it yet).
  context: ({ input: { at, briefGate, ...given } }) => ({
    ...given,
    briefGate: briefGate === true,
    paneId: null,
    reading: null,
    lastEventAt: at,
    fingerprint: '',
    lastChangeAt: null,
    stallAt: null,
    unclassifiedMs: given.unclassifiedMs ?? UNCLASSIFIED_MS,
    unclassifiedAt: null,
    briefFingerprint: null,
    briefRetries: 0,
    startupSettleAt: null,
    resubmitAt: null,
    briefQuietAt: null,
    briefConfirmAt: null,
    escapeSettleAt: null,
    interruptSettleAt: null,
    clearSettleAt: null,
    stopAt: null,
    stopRequested: false,
    reportExists: null,
    waitingOn: null,
    exitCode: null,
    problem: null,
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
    LOST: { target: '.lost', actions: assign({ problem: ({ event }) => event.why ?? 'pty process died with the daemon' }) },
    // Person commands, accepted wherever a pane exists (briefing and teardown refuse them below).
    SEND: [
      { guard: 'noPane', actions: { type: 'refuse', params: ({ context, event }) => ({ id: context.id, requestId: event.requestId, code: 'not-accepting-input', box: '', kind: '' }) } },
      // Before the box rule, and not overridden by allowNonEmptyBox: a dialog is answered by keys only.
      { guard: 'textWouldAnswerDialog', actions: { type: 'refuse', params: ({ context, event }) => ({ id: context.id, requestId: event.requestId, code: 'awaiting-input', box: '', kind: '', dialog: context.reading?.dialog ?? null, reason: context.reading?.blockedReason ?? null }) } },
      { guard: 'sendAllowed', actions: { type: 'deliverText', params: ({ context, event }) => ({ id: context.id, paneId: context.paneId!, text: event.text, allowNonEmptyBox: event.allowNonEmptyBox, requestId: event.requestId, ...(event.decision !== undefined && { decision: event.decision }) }) } },
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
    admission: admissionState,
    gate: gateState,
    preparing: preparingState,
    seeding: seedingState,
    spawning: spawningState,
    starting: startingState,
    briefing: briefingState,
    running: runningState,
    settled: settledState,
    reporting: reportingState,
    done: doneState,
    landing: landingState,
    parked: parkedState,
    teardown: teardownState,
    waitFailed: waitFailedState,
    stopped: { type: 'final', tags: ['gone', 'exited-cleanly'] },
    gone: { type: 'final', tags: ['gone'] },
    failed: { type: 'final', tags: ['gone', 'failed'] },
    lost: { type: 'final', tags: ['gone', 'lost'] },
    /** Landed (and torn down unless `problem` says what was kept). */
    landed: { type: 'final', tags: ['gone', 'landed', 'no-worktree'] },
    /** The brief was rejected at the dispatch gate: the brief and the reason stay; nothing else was made. */
    rejected: { type: 'final', tags: ['gone', 'rejected', 'no-worktree'] },
  },
});

export type WorkerMachine = typeof workerMachine;
