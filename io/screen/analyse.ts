/**
 * One screen → one ScreenReading, for any profile. The order of the state decision is the point:
 *   exited  — the agent (or the host) says the process ended; nothing on screen is live any more
 *   blocked — a person's answer is awaited; beats working (a dialog can sit over a running turn)
 *   working — a turn is running
 *   idle    — a live box is visible on a readable screen and none of the above, and the
 *             profile can tell the turn above it is over
 *   unknown — anything else. Idle is never a guess: "could not tell" stays unknown.
 */
import type { AgentState, ScreenReading, Screen } from './types.ts';
import type { ScreenProfileSpec } from './profile-spec.ts';
import { isRule, lastNonBlankRow, layoutScreen, type ScreenLayout } from './layout.ts';
import { readBox } from './prompt-box.ts';
import { findBlocker } from './awaiting-input.ts';
import { isReadable } from './readability.ts';
import { progressText } from './progress-text.ts';
import { fingerprintLines } from './fingerprint.ts';
import { hostShowsExit } from './host-exit.ts';
import { boxLeftBehind } from './box-left-behind.ts';
import { unreadableReading } from './unreadable.ts';
import { turnEndedInError } from './agent-error.ts';
import { readDialog } from './dialog.ts';
import { dialogStillDrawing } from './dialog-drawing.ts';

export function analyseWith(screen: Screen, spec: ScreenProfileSpec): ScreenReading {
  const layout = layoutScreen(screen, spec.box, spec);
  const lastRow = lastNonBlankRow(layout);
  if (lastRow === -1) return unreadableReading();

  const wide = isReadable(screen);
  const readable = spec.isReadable ? spec.isReadable(screen, wide) : wide;
  // What is below the box can say the agent is gone: its last frame stays above the shell's text.
  const exited = spec.isExited(layout) || hostShowsExit(layout, lastRow) || boxLeftBehind(layout, spec.liveFooter);
  // After exit the box on screen is a leftover drawing, not an input anyone can write to.
  const box = exited ? null : spec.readBox ? spec.readBox(layout) : readBox(layout, spec.box);
  const found = exited ? null : findBlocker(layout, spec.blockers);
  const dialog = found === null ? null : (spec.readDialog ?? readDialog)(layout, found);
  // A dialog caught before its choices are drawn is not yet a question: could not tell (dialog-drawing.ts).
  const drawing = found !== null && dialog === null && dialogStillDrawing(layout, spec.blockers, found);
  const blockedReason = drawing ? null : found;
  const working = !exited && found === null && spec.isWorking(layout);

  // Background work still running after the turn (issue 43): the session is at work, never idle.
  // Counted only once the turn itself is over: it is what keeps that screen at work.
  const background = exited || found !== null || working ? 0 : (spec.backgroundTasks?.(layout) ?? 0);

  let state: AgentState = 'unknown';
  if (exited) state = 'exited';
  else if (blockedReason !== null) state = 'blocked';
  else if (working || (background > 0 && box !== null)) state = 'working';
  // A box with a turn above it that may still run is not idle: could not tell (the witness may).
  else if (box !== null && readable && !drawing && !(spec.turnUndecided?.(layout) ?? false)) state = 'idle';

  // Fail closed (§3.6): an unreadable screen carries no fingerprint, so it can never look frozen.
  const text = readable ? progressText(layout.texts, transcriptEnd(layout)) : null;
  return {
    state,
    awaitingInput: blockedReason !== null,
    blockedReason,
    promptBox: box === null ? null : box.text,
    promptBoxKind: box === null ? null : box.kind,
    readable,
    fingerprint: text === null ? '' : fingerprintLines(text.lines),
    lastActivity: text === null ? '' : text.lastActivity,
    // Only an idle screen can show a turn that ended in an error (a running one may still retry).
    agentError: state === 'idle' ? (spec.turnError ?? turnEndedInError)(layout) : null,
    dialog,
    ...(background > 0 && { background }),
    ...(state === 'idle' && spec.startingUp?.(layout) === true && { startingUp: true }),
  };
}

/**
 * Where the rows `lastActivity` is drawn from end: the transcript, not the chrome. With a live
 * box on screen the rows from the rule above it down (box, rule, footer) are the same on every
 * idle screen, so they would crowd out the last thing the worker actually said.
 */
function transcriptEnd(layout: ScreenLayout): number {
  if (layout.boxRow < 0) return layout.texts.length;
  if (layout.chromeTop !== undefined) return layout.chromeTop;
  const cut = layout.boxRow;
  return cut > 0 && isRule(layout.texts[cut - 1]!) ? cut - 1 : cut;
}
