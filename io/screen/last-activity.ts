/**
 * What a person sees first about a quiet worker (control-plane §3.6 step 7): the last three
 * normalised non-empty lines, joined with ' | '. Normalised so it reads the same as the
 * fingerprint it travels with.
 */
import type { Screen } from './types.ts';
import { normaliseScreen } from './normalise.ts';

export const LAST_ACTIVITY_LINES = 3;

export function lastActivityOf(lines: readonly string[]): string {
  return lines.slice(-LAST_ACTIVITY_LINES).join(' | ');
}

export function lastActivity(screen: Screen): string {
  return lastActivityOf(normaliseScreen(screen));
}
