/**
 * The reading for a screen that could not be read (a failed capture, a blank pane). Every field
 * says "could not tell": state unknown (never idle), nothing awaited, no box, not readable, no
 * fingerprint — so a blind spell is never mistaken for a stall or for a finished worker.
 */
import type { ScreenReading } from './types.ts';

export const UNREADABLE_READING: Readonly<ScreenReading> = Object.freeze({
  state: 'unknown',
  awaitingInput: false,
  blockedReason: null,
  promptBox: null,
  promptBoxKind: null,
  readable: false,
  fingerprint: '',
  lastActivity: '',
});

/** A fresh, mutable copy of UNREADABLE_READING (for callers that attach to it). */
export function unreadableReading(): ScreenReading {
  return { ...UNREADABLE_READING };
}
