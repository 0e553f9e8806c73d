/**
 * Worker states from a live pane to the first turn: waiting for the start screen to settle
 * (starting) and typing the first prompt and confirming it was submitted (briefing).
 */
import { and, assign, not, stateIn } from 'xstate';
import { blockedByAQuestion, workerSetup } from './worker.setup.ts';
import { armDeadline, named, reached } from './worker.deadlines.ts';
import {
  STARTUP_SETTLE_MS, STARTING_UP_WAIT_MS, BRIEF_QUIET_MS, RESUBMIT_AFTER_MS, BRIEF_CONFIRM_MS, BRIEF_NOT_TAKEN_UP,
} from './worker.constants.ts';

/** The fingerprint no screen has: a first prompt found already submitted at a restore. */
const ALREADY_SENT = 'already-sent';

export const startingState = workerSetup.createStateConfig({
  initial: 'waiting',
  on: {
    SCREEN: [
      blockedByAQuestion,
      // Not typed yet: the start screen is still being redrawn (see settling).
      { guard: 'idleReadyForBrief', target: '.settling', actions: 'noteChange' },
      // Our own first prompt, typed by an earlier daemon whose transitions were lost (a locked
      // or full database, then a kill): it is submitted once, never typed again (issue 25).
      // What the screen was before it went out is not known: as for one found sent (ALREADY_SENT).
      { guard: 'promptInBox', target: '#worker.briefing.unsubmitted', actions: ['noteReading', assign({ briefFingerprint: ALREADY_SENT })] },
      // A box holding text is never briefed into; the person gets STARTUP_SETTLE_MS to empty it.
      { guard: 'idleWithTextInBox', target: '.occupied', actions: ['noteChange', 'armFirstPromptDue'] },
      // Anything else: a changed screen restarts the start-up stall clock (waiting re-arms it).
      { guard: 'changed', target: '.waiting', actions: 'noteChange' },
      { target: '.waiting', actions: 'noteReading' },
    ],
    // SEND/KEYS at the root let the person answer a startup dialog by hand; the machine never does.
  },
  states: {
    /**
     * Until the first idle screen. Never forever (issue 21: text typed into the pane during
     * start-up left a worker here, `busy`, for good): a start screen unchanged for stallMs is
     * `stalled`, as a working screen would be. An unreadable one is never a stall: its quiet
     * time starts again (bounded re-arm, not a spent deadline).
     */
    waiting: {
      tags: ['busy'],
      invoke: armDeadline('stall'),
      on: {
        DEADLINE: [
          { guard: and([reached('stall'), 'readingReadable']), target: 'stalled' },
          { guard: reached('stall'), target: 'waiting', reenter: true, actions: assign({ stallAt: ({ event, context }) => (event as { at: number }).at + context.stallMs }) },
          { guard: named('stall'), target: 'waiting', reenter: true },
        ],
      },
    },
    /** The start screen has not changed for stallMs: a condition that wakes a person. */
    stalled: {
      tags: ['stalled'],
      on: { SCREEN: [{ guard: 'unreadable', actions: 'noteReading' }, { guard: 'busyUnchanged', actions: 'noteReading' }] },
    },
    blocked: { tags: ['blocked'] },
    /**
     * Idle, with text in the box nobody sent (a person typed into the pane during start-up):
     * the first prompt is never typed into it. It waits until the prompt is due (startupSettleAt);
     * an emptied box meanwhile goes on to settling, text still there then wakes a person.
     */
    occupied: {
      tags: ['busy'],
      invoke: armDeadline('startup-settle'),
      on: {
        SCREEN: { guard: 'idleWithTextInBox', actions: 'noteReading' },
        DEADLINE: [
          { guard: reached('startup-settle'), target: 'boxHeld', actions: 'noteBoxHeld' },
          { guard: named('startup-settle'), target: 'occupied', reenter: true },
        ],
      },
    },
    /** The first prompt is due and the box holds text: blocked on a person, the text quoted in `problem`. */
    boxHeld: {
      tags: ['blocked'],
      on: { SCREEN: { guard: 'idleWithTextInBox', actions: ['noteReading', 'noteBoxHeld'] } },
      exit: 'clearProblem',
    },
    /**
     * The first idle, empty-box screen: the first prompt waits STARTUP_SETTLE_MS from it
     * (an absolute deadline, kept across redraws and restores) and is typed only if the
     * latest reading then is still idle with an empty box. A dialog meanwhile is
     * `blocked`, a box holding text or any other screen is `waiting` (the parent's
     * transitions), so the deadline never types into either. A screen that says the agent
     * has not finished starting waits STARTING_UP_WAIT_MS instead, until one that does not.
     */
    settling: {
      tags: ['busy'],
      entry: assign({ startupSettleAt: ({ context }) => context.lastEventAt + (context.reading?.startingUp === true ? STARTING_UP_WAIT_MS : STARTUP_SETTLE_MS) }),
      invoke: armDeadline('startup-settle'),
      on: {
        SCREEN: [
          // The agent has just finished starting: STARTUP_SETTLE_MS from this screen (re-entered).
          { guard: 'finishedStartingUp', target: 'settling', reenter: true, actions: 'noteChange' },
          // A redraw of the start screen: noted (briefing compares against it), deadline unchanged.
          { guard: 'idleReadyForBrief', actions: 'noteChange' },
        ],
        DEADLINE: [
          { guard: 'startupSettled', target: '#worker.briefing' },
          { guard: named('startup-settle'), target: 'waiting' },
        ],
      },
    },
  },
});

export const briefingState = workerSetup.createStateConfig({
  initial: 'sending',
  on: {
    // Refused while our prompt is on its way; once it is stuck (blocked) the person may act.
    SEND: { guard: not(stateIn('#worker.briefing.blocked')), actions: { type: 'refuse', params: ({ context, event }) => ({ id: context.id, requestId: event.requestId, code: 'briefing', box: '', kind: '' }) } },
    KEYS: { guard: not(stateIn('#worker.briefing.blocked')), actions: { type: 'refuse', params: ({ context, event }) => ({ id: context.id, requestId: event.requestId, code: 'briefing', box: '', kind: '' }) } },
    SCREEN: [
      { guard: 'awaitingInput', target: '#worker.running.blocked', actions: ['noteChange', 'clearProblem'] },
      // The first turn ended in an API error or a usage limit: never settled.
      { guard: 'agentErrorShown', target: '#worker.running.agentError', actions: ['noteChange', 'noteAgentError'] },
      // Our text still in the box is checked before the spinner: it was not submitted.
      { guard: 'promptInBox', target: '.unsubmitted', actions: 'noteReading' },
      { guard: 'busy', target: '#worker.running.working', actions: ['noteChange', 'clearProblem'] },
      { guard: 'otherTextInBox', target: '.blocked', actions: ['noteReading', 'promptNotSubmitted'] },
      // The agent said the turn our prompt began is over, and the screen agrees: settled now.
      { guard: 'briefTurnEndWitnessed', target: '#worker.settled', actions: ['noteChange', 'clearProblem'] },
      // Not settled yet: the screen must hold still first (a spinner or a dialog may follow).
      { guard: 'idleAfterBrief', target: '.quieting', actions: 'noteChange' },
      { actions: 'noteReading' },
    ],
  },
  states: {
    sending: {
      tags: ['busy'],
      invoke: {
        src: 'submitPrompt',
        input: ({ context }) => ({ id: context.id, paneId: context.paneId!, text: context.firstPrompt, allowNonEmptyBox: false }),
        onDone: {
          target: 'confirming',
          actions: assign({
            // An earlier daemon had sent it (issue 25): the screen we restored on may already show
            // the turn over, so no screen seen here counts as "before" — any idle, empty-box one
            // after it is the turn's end (still held quiet for BRIEF_QUIET_MS).
            briefFingerprint: ({ context, event }) => (event.output.alreadySent ? ALREADY_SENT : context.fingerprint),
            // Measured from when the prompt went out, not from the last screen read.
            briefConfirmAt: ({ event }) => event.output.at + BRIEF_CONFIRM_MS,
          }),
        },
        // The pane exists and its agent runs: a person must look (blocked), never `failed` with
        // a live pane nobody can stop or re-dispatch over.
        onError: { target: 'blocked', actions: assign({ problem: ({ event }) => `brief: ${String(event.error)}` }) },
      },
      on: { SCREEN: { actions: 'noteReading' } },
    },
    /**
     * The prompt went out; the parent's SCREEN transitions look for a sign that it was taken up.
     * If none comes by briefConfirmAt (absolute, so a restore keeps it), the worker is blocked
     * rather than left here, where no `hand wait` would ever wake for it. Re-entered from
     * quieting, the same time is armed again: one that passed meanwhile fires at once.
     */
    confirming: {
      tags: ['busy'],
      invoke: {
        src: 'deadline',
        input: ({ context }) => ({ at: context.briefConfirmAt ?? context.lastEventAt + BRIEF_CONFIRM_MS, name: 'brief-confirm' as const }),
      },
      on: {
        DEADLINE: {
          guard: named('brief-confirm'),
          target: 'blocked',
          actions: assign({ problem: BRIEF_NOT_TAKEN_UP }),
        },
      },
    },
    /**
     * Idle with the box empty on a screen that differs from the one we briefed, and no
     * `working` seen: the turn may have run between two reads, or Claude Code has not drawn
     * its spinner yet. Settled only if this screen holds unchanged for BRIEF_QUIET_MS; any
     * change starts the wait again, work or a dialog wins (the parent's transitions).
     */
    quieting: {
      tags: ['busy'],
      entry: assign({ briefQuietAt: ({ context }) => context.lastEventAt + BRIEF_QUIET_MS }),
      invoke: { src: 'deadline', input: ({ context }) => ({ at: context.briefQuietAt ?? context.lastEventAt, name: 'brief-quiet' as const }) },
      on: {
        SCREEN: [
          // The turn-end word came while the quiet time ran: the rest of it is not waited out.
          { guard: 'briefTurnEndWitnessed', target: '#worker.settled', actions: 'noteReading' },
          { guard: 'idleAfterBriefUnchanged', actions: 'noteReading' },
          // Re-entering re-arms the deadline from this screen's time.
          { guard: 'idleAfterBrief', target: 'quieting', reenter: true, actions: 'noteChange' },
        ],
        DEADLINE: [
          { guard: 'briefQuietHeld', target: '#worker.settled' },
          // Something else showed meanwhile (no box, an unreadable screen): keep confirming.
          { guard: named('brief-quiet'), target: 'confirming' },
        ],
      },
    },
    /**
     * Our prompt sits in the box: give a slow TUI its moment, then press Enter again. "Not
     * submitted" is said only of a box still read holding our prompt once the retries are spent;
     * a latest reading that no longer shows it there (the box empty again, or a screen that
     * cannot be read) goes back to confirming, whose deadline still bounds the wait. OpenCode
     * under load takes the Enter late, empties its box on the start view we briefed from (no sign
     * by itself), then blanks the whole screen while it opens the session the Enter began: either
     * one, read last before this deadline, blocked a worker on a prompt it had taken.
     */
    unsubmitted: {
      tags: ['busy'],
      entry: assign({ resubmitAt: ({ context }) => context.lastEventAt + RESUBMIT_AFTER_MS }),
      invoke: { src: 'deadline', input: ({ context }) => ({ at: context.resubmitAt ?? context.lastEventAt, name: 'resubmit' as const }) },
      on: {
        // A repaint with our text still there keeps the deadline where it is.
        SCREEN: { guard: 'promptInBox', actions: 'noteReading' },
        DEADLINE: [
          { guard: 'resubmitDue', target: 'resubmitting' },
          { guard: 'promptNotSeenAtResubmit', target: 'confirming' },
          { guard: named('resubmit'), target: 'blocked', actions: 'promptNotSubmitted' },
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
      tags: ['busy'],
      invoke: {
        src: 'pressKey',
        input: ({ context }) => ({ id: context.id, paneId: context.paneId!, key: 'enter' as const }),
        // A fresh Enter gets the full confirmation time again.
        onDone: {
          target: 'confirming',
          actions: assign({
            briefRetries: ({ context }) => context.briefRetries + 1,
            briefConfirmAt: ({ event }) => event.output.at + BRIEF_CONFIRM_MS,
          }),
        },
        onError: { target: 'blocked', actions: 'promptNotSubmitted' },
      },
      on: { SCREEN: { actions: 'noteReading' } },
    },
    /**
     * A person must look, and `problem` says why: the prompt did not go in, other text sits in
     * the box, or it left the box and nothing ever showed it running. Never settled.
     */
    blocked: {
      tags: ['blocked'],
      on: {
        SCREEN: [
          { guard: 'awaitingInput', target: '#worker.running.blocked', actions: ['noteChange', 'clearProblem'] },
          { guard: 'busy', target: '#worker.running.working', actions: ['noteChange', 'clearProblem'] },
          { actions: 'noteReading' },
        ],
      },
    },
  },
});
