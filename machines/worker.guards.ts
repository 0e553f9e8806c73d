/**
 * Pure readings of the latest ScreenReading, shared by the worker machine's guards.
 * Fail directions follow the reference (§3.8): the prompt-box check fails OPEN (an
 * unreadable screen lets a send through: a narrow pane must not make a worker unsteerable),
 * every state claim fails CLOSED (an unreadable screen is never idle, blocked or stalled).
 */
import type { ScreenReading } from '../io/screen/types.ts';

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
