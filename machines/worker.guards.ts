/**
 * Pure readings of the latest ScreenReading, shared by the worker machine's guards.
 * Fail directions follow the reference (§3.8): the prompt-box check fails OPEN (an
 * unreadable screen lets a send through: a narrow pane must not make a worker unsteerable),
 * every state claim fails CLOSED (an unreadable screen is never idle, blocked or stalled).
 */
import type { ScreenReading } from '../contract/screen-reading.ts';

export const isReadable = (r: ScreenReading | null): boolean => r !== null && r.readable;

/** Awaiting input only counts on a readable screen ("no prompt found" on a blind one proves nothing). */
export const isBlocked = (r: ScreenReading | null): boolean =>
  r !== null && r.readable && (r.awaitingInput || r.state === 'blocked');

export const isIdle = (r: ScreenReading | null): boolean =>
  r !== null && r.readable && !isBlocked(r) && r.state === 'idle';

/** Readable and neither blocked nor idle: the agent is (or may be) at work. */
export const isBusy = (r: ScreenReading | null): boolean =>
  r !== null && r.readable && !isBlocked(r) && r.state !== 'idle' && r.state !== 'exited';

/** Fail-open: no reading or an unreadable one counts as empty; null = no live box visible. */
export const boxIsEmpty = (r: ScreenReading | null): boolean =>
  r === null || !r.readable || r.promptBox === null || r.promptBox === '';

/** The first prompt goes out only into a visible, empty live box. */
export const boxReadyForBrief = (r: ScreenReading | null): boolean =>
  r !== null && r.readable && r.promptBox !== null && r.promptBox === '';

/** Whitespace is where a box differs from what was typed: it wraps long text over rows. */
const squeeze = (s: string): string => s.replace(/[\s\u00a0]+/g, '');
/**
 * A long paste folded into a marker instead of drawn: Claude Code's `[Pasted text #1 +12 lines]`,
 * Gemini CLI 0.61.0's `[Pasted Text: 681 chars]`, OpenCode's `[Pasted ~1 lines]`.
 */
const PASTE_MARKER = /^\[Pasted (?:[Tt]ext(?: #\d+[^\]]*|: \d+ chars?)|~\d+ lines?)\]$/;
/** Shorter fragments prove nothing about whose text is in the box. */
const MIN_FRAGMENT = 8;

/**
 * The live box holds the first prompt we typed (so its Enter was lost): the same text once
 * wrapping is undone, or the visible start or end of it when the box scrolls, or the paste
 * marker the TUI draws for a long paste. Only asked right after we typed into an EMPTY box
 * (briefing starts on `boxReadyForBrief`), so a paste marker there can only be ours.
 */
export function boxHoldsPrompt(r: ScreenReading | null, prompt: string): boolean {
  if (r === null || !r.readable || !r.promptBox) return false;
  return boxTextIsPrompt(r.promptBox, prompt);
}

/** The same test on the box's text alone (what a refused send quotes back). */
export function boxTextIsPrompt(boxText: string, prompt: string): boolean {
  if (!boxText) return false;
  if (PASTE_MARKER.test(boxText.trim())) return true;
  const box = squeeze(boxText);
  const ours = squeeze(prompt);
  if (box === '' || ours === '') return false;
  if (box === ours) return true;
  return box.length >= MIN_FRAGMENT && (ours.startsWith(box) || ours.endsWith(box));
}


/**
 * A turn is running: the screen says `working` (readable, no menu up). Teardown interrupts it
 * first. Background work alone (the turn over, a shell still running: issue 43) is not a running
 * turn: an Escape there has nothing to interrupt, and /exit is what a stop sends.
 */
export const isTurnRunning = (r: ScreenReading | null): boolean =>
  r !== null && r.readable && !isBlocked(r) && r.state === 'working' && !((r.background ?? 0) > 0);

/**
 * Text somebody typed (or an interrupted prompt put back, reference §6.7) sits in the live box.
 * A suggestion is not counted: /exit displaces it (§2.13). Fails closed (an unreadable screen
 * holds nothing we know of), so teardown never presses ctrl-u blind.
 */
export const boxHoldsTypedText = (r: ScreenReading | null): boolean =>
  r !== null && r.readable && !isBlocked(r) && !!r.promptBox && r.promptBoxKind !== 'suggestion';
