/**
 * The worker machine's setup: its types, and the named actors (placeholders the wiring in
 * actors/ replaces with `provide()`), actions and guards its states refer to by name. The
 * state files build their configs with `workerSetup.createStateConfig`, so they are checked
 * against exactly these names and types.
 */
import { setup, assign, fromCallback, fromPromise, type EventObject } from 'xstate';
import type { Key } from '../contract/keys.ts';
import type { WorkerTag } from '../contract/vocabulary.ts';
import type {
  WorkerContext, WorkerEvent, WorkerInput, DeadlineName,
  DeliverTextParams, DeliverKeyParams, RefuseParams, LandingOutcome, LandingSummary,
} from './worker.types.ts';
import {
  isReadable, isBlocked, isIdle, isBusy, boxIsEmpty, boxReadyForBrief, boxHoldsPrompt, isTurnRunning, boxHoldsTypedText,
} from './worker.guards.ts';
import { MAX_BRIEF_RETRIES, PROMPT_NOT_SUBMITTED, UNCLASSIFIED_MS, BOX_HELD_AT_START, STARTUP_SETTLE_MS } from './worker.constants.ts';
import { DEADLINE_AT } from './worker.deadlines.ts';
import { textWouldAnswerDialog, type ScreenReading } from '../contract/screen-reading.ts';
import { AGENT_ERROR_PREFIX } from '../contract/worker-words.ts';

/** Readable, nothing awaited, and neither idle, working nor exited: "could not tell". */
const isUnclassified = (r: ScreenReading | null): boolean => isBusy(r) && r!.state === 'unknown';

/** The unclassified spell's bound: kept while it lasts, started by its first screen, ended by any other. */
function unclassifiedClock(context: WorkerContext, e: { reading: ScreenReading; at: number }): number | null {
  if (!isUnclassified(e.reading)) return null;
  return context.unclassifiedAt ?? e.at + (context.unclassifiedMs ?? UNCLASSIFIED_MS);
}

const placeholder = (name: string) => async (): Promise<never> => {
  throw new Error(`worker machine: actor '${name}' must be provided by the wiring`);
};

type ScreenEv = Extract<WorkerEvent, { type: 'SCREEN' }>;
const screenOf = (e: WorkerEvent): ScreenEv | null => (e.type === 'SCREEN' ? e : null);

/**
 * A guard: the event is a screen `is` accepts, and it is a new screen ('changed': its fingerprint
 * differs from the last one) or the same screen again ('unchanged': a repaint).
 */
const screenThat = (is: (r: ScreenReading) => boolean, change: 'changed' | 'unchanged') =>
  ({ event, context }: { event: WorkerEvent; context: WorkerContext }): boolean => {
    const e = screenOf(event);
    return !!e && is(e.reading) && (e.reading.fingerprint !== context.fingerprint) === (change === 'changed');
  };

export const workerSetup = setup({
  types: {
    context: {} as WorkerContext,
    events: {} as WorkerEvent,
    input: {} as WorkerInput,
    /** What each state means (contract/vocabulary.ts): one condition per leaf, plus marks. */
    tags: {} as WorkerTag,
  },
  actors: {
    prepareWorktree: fromPromise<void, { id: string }>(placeholder('prepareWorktree')),
    seedAgent: fromPromise<void, { id: string }>(placeholder('seedAgent')),
    spawnPane: fromPromise<{ paneId: string; at: number }, { id: string }>(placeholder('spawnPane')),
    /** teardown: the /exit of a stop, exempt from the dialog rule of text sends (principle 5). */
    submitPrompt: fromPromise<{ at: number; alreadySent?: boolean }, { id: string; paneId: string; text: string; allowNonEmptyBox: boolean; teardown?: boolean }>(
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
    /** Says why a step gave up (teardown's steps share one shape: the problem is their parameter). */
    noteProblem: assign((_, params: { problem: string }) => ({ problem: params.problem })),
    /**
     * Said on the transitions into briefing.blocked, not by its entry: the same state is also
     * entered when the prompt left the box but never showed as taken up, which says so instead.
     */
    promptNotSubmitted: assign({ problem: PROMPT_NOT_SUBMITTED }),
    /** Starting: when the first prompt is due, kept from an earlier first idle screen (a redraw never moves it). */
    armFirstPromptDue: assign(({ context, event }) => ({
      startupSettleAt: context.startupSettleAt ?? (event as { at: number }).at + STARTUP_SETTLE_MS,
    })),
    /** The error's message is the problem a person reads (hand status, the notification). */
    noteAgentError: assign(({ event, context }) => {
      const e = screenOf(event);
      return e?.reading.agentError ? { problem: `${AGENT_ERROR_PREFIX}${e.reading.agentError}` } : { problem: context.problem };
    }),
    /** The box's text is quoted, so the person woken sees what stopped the first prompt. */
    noteBoxHeld: assign(({ context }) => ({ problem: `${BOX_HELD_AT_START}: ${JSON.stringify(context.reading?.promptBox ?? '')}` })),
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
      return {
        reading: e.reading, lastEventAt: e.at, unclassifiedAt: unclassifiedClock(context, e),
        ...(e.reading.readable ? {} : { fingerprint: context.fingerprint }),
      };
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
        unclassifiedAt: unclassifiedClock(context, e),
      };
    }),
  },
  guards: {
    readable: ({ event }) => isReadable(screenOf(event)?.reading ?? null),
    unreadable: ({ event }) => !isReadable(screenOf(event)?.reading ?? null),
    /** The latest reading (not the event) is readable: a deadline's check. */
    readingReadable: ({ context }) => isReadable(context.reading),
    awaitingInput: ({ event }) => isBlocked(screenOf(event)?.reading ?? null),
    idle: ({ event }) => isIdle(screenOf(event)?.reading ?? null),
    /**
     * Idle, and the agent's own turn-end word (Stop, AfterAgent, notify) came for this very screen
     * (actors/witness.ts): the turn is over by both witnesses, so no quiet time is waited out.
     */
    turnEndWitnessed: ({ event }) => {
      const e = screenOf(event);
      return !!e && e.turnEnded === true && isIdle(e.reading) && !e.reading.agentError;
    },
    idleReadyForBrief: ({ event }) => {
      const r = screenOf(event)?.reading ?? null;
      return isIdle(r) && boxReadyForBrief(r);
    },
    /** Idle with an empty box, no longer saying the agent is starting, after a screen that did. */
    finishedStartingUp: ({ context, event }) => {
      const r = screenOf(event)?.reading ?? null;
      return context.reading?.startingUp === true && isIdle(r) && boxReadyForBrief(r) && r!.startingUp !== true;
    },
    /** The settle time ran out and the latest reading is still idle with an empty live box. */
    startupSettled: ({ context, event }) =>
      event.type === 'DEADLINE' && event.name === 'startup-settle' && isIdle(context.reading) && boxReadyForBrief(context.reading),
    busy: ({ event }) => isBusy(screenOf(event)?.reading ?? null),
    busyChanged: screenThat(isBusy, 'changed'),
    busyUnchanged: screenThat(isBusy, 'unchanged'),
    idleUnchanged: screenThat(isIdle, 'unchanged'),
    idleChanged: screenThat(isIdle, 'changed'),
    /** The latest reading was taken while the pane poured (its screen still moving): a deadline's check. */
    readingPouring: ({ context }) => context.reading?.pouring === true,
    /** Idle, read while the pane pours or just after a reading that was: the screen has not held still. */
    idlePouringOrAfterPour: ({ event, context }) => {
      const r = screenOf(event)?.reading ?? null;
      return isIdle(r) && (r!.pouring === true || context.reading?.pouring === true);
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
    /**
     * Briefing: the agent's turn-end word came for this screen, after our prompt went out (the
     * witness drops a word older than our input), and the prompt has left the box.
     */
    briefTurnEndWitnessed: ({ event, context }) => {
      const e = screenOf(event);
      return !!e && e.turnEnded === true && isIdle(e.reading) && !e.reading.agentError && boxReadyForBrief(e.reading) && context.briefFingerprint !== null;
    },
    /** While the quiet period runs: the same idle, empty-box screen again (a repaint, no change). */
    idleAfterBriefUnchanged: screenThat((r) => isIdle(r) && boxReadyForBrief(r), 'unchanged'),
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
      boxHoldsPrompt(context.reading, context.firstPrompt) && context.briefRetries < MAX_BRIEF_RETRIES,
    /**
     * The resubmit time came and the latest reading does not show our prompt in the box: it left
     * (the box read empty, even on the very screen we briefed from) or nothing can be told (an
     * unreadable screen). Other text or a dialog moved the worker on when they were read.
     */
    promptNotSeenAtResubmit: ({ context, event }) =>
      event.type === 'DEADLINE' && event.name === 'resubmit' && !boxHoldsPrompt(context.reading, context.firstPrompt),
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
    /** The latest reading waits on a dialog whose cursor is not in a free-text field (contract rule). */
    textWouldAnswerDialog: ({ context }) => textWouldAnswerDialog(context.reading),
    sendAllowed: ({ context, event }) =>
      event.type === 'SEND' && (event.allowNonEmptyBox || boxIsEmpty(context.reading)),
    /** Only a FIRST key of Enter is guarded: later keys answer a menu the earlier keys moved through. */
    keyAllowed: ({ context, event }) =>
      event.type === 'KEYS' && (event.key !== 'enter' || event.allowNonEmptyBox || boxIsEmpty(context.reading)),
    /**
     * Background work still runs after the turn (the screen's count or the Stop hook's, issue 43):
     * at work whatever the fingerprint — the idle frame it shares with a finished turn is not one.
     */
    backgroundRunning: ({ event }) => {
      const r = screenOf(event)?.reading ?? null;
      return isBusy(r) && (r!.background ?? 0) > 0;
    },
    /** A readable screen the reader could not classify (no box, dialog or spinner found). */
    unclassified: ({ event }) => isUnclassified(screenOf(event)?.reading ?? null),
    unclassifiedChanged: screenThat(isUnclassified, 'changed'),
    classifiedUnchanged: screenThat((r) => isBusy(r) && !isUnclassified(r), 'unchanged'),
    /**
     * The deadline `name` has been reached on the time its state armed it for (worker.deadlines.ts).
     * What else a state's deadline needs is what the state itself means (working: a readable,
     * busy screen), so this is the whole guard there, and a DEADLINE it rejects is early or
     * moved: the state arms it again.
     */
    deadlineReached: ({ context, event }, params: { name: DeadlineName }) =>
      event.type === 'DEADLINE' && event.name === params.name && event.at >= DEADLINE_AT[params.name](context),
    /** Idle after a turn that ended in an API error or a usage limit (the screen's or the StopFailure hook's word). */
    agentErrorShown: ({ event }) => {
      const r = screenOf(event)?.reading ?? null;
      return isIdle(r) && !!r!.agentError;
    },
    /** Starting: a readable screen unlike the last one (the start-up stall clock restarts). */
    changed: screenThat(isReadable, 'changed'),
    /** Idle, the live box visible and holding text (a person typed into the pane during start-up). */
    idleWithTextInBox: ({ event }) => {
      const r = screenOf(event)?.reading ?? null;
      return isIdle(r) && !!r!.promptBox;
    },
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
});

/**
 * A question on the screen blocks whichever phase shows it (starting and running each have a
 * `.blocked` child that returns to where it was once the question is gone): one rule for both.
 */
export const blockedByAQuestion = { guard: 'awaitingInput', target: '.blocked', actions: 'noteReading' } as const;
