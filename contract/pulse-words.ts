/**
 * The usage pulse (vigil, workflow §1.9): one line when something changed since the last reading —
 * the fleet moved (how many workers are in each condition), or usage crossed into another
 * ten-point band — and nothing otherwise. The first reading is the baseline: it prints nothing.
 * Pure, so `hand watch --pulse` and its tests share it.
 */
import type { UsageWindow } from './methods.ts';

export interface PulseReading {
  /** Live workers by the word a person reads (working, blocked, done, …); the gone are left out. */
  fleet: Record<string, number>;
  /** The nearer usage window, or null when usage could not be read. */
  usage: Pick<UsageWindow, 'window' | 'percent'> | null;
}

export const bandOf = (percent: number): number => Math.min(100, Math.floor(percent / 10) * 10);

function fleetWords(fleet: Record<string, number>): string {
  const parts = Object.entries(fleet).filter(([, n]) => n > 0).sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${n} ${k}`);
  return parts.length ? parts.join(', ') : 'no live worker';
}

const sameFleet = (a: Record<string, number>, b: Record<string, number>) => fleetWords(a) === fleetWords(b);

/** The line to print for `now` after `before` (null: the first reading, or nothing changed). */
export function pulseLine(before: PulseReading | null, now: PulseReading): string | null {
  if (!before) return null;
  const moved = !sameFleet(before.fleet, now.fleet);
  const crossed = (before.usage ? bandOf(before.usage.percent) : null) !== (now.usage ? bandOf(now.usage.percent) : null);
  if (!moved && !crossed) return null;
  const usage = now.usage ? `usage ${Math.round(now.usage.percent)}% of the ${now.usage.window} window` : 'usage unknown';
  const what = [moved ? 'the fleet moved' : null, crossed ? (now.usage ? `usage crossed into the ${bandOf(now.usage.percent)}s` : 'usage can no longer be read') : null].filter(Boolean).join('; ');
  return `pulse: ${what} - fleet: ${fleetWords(now.fleet)}; ${usage}`;
}
