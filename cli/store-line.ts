/** How the CLI says that the state database does not take writes (`hand daemon status`, `hand status`). */
import type { StoreHealth } from '../contract/methods/fleet.ts';

/** A second line when the state database does not take writes: why, since when, what waits, the fix. */
export function storeLine(h: StoreHealth | null | undefined, home?: string): string {
  if (!h) return '';
  const since = new Date(h.since).toISOString();
  const why = h.trouble === 'locked'
    ? 'is locked by another process (a sqlite3 shell or a backup tool holding a write transaction?); close it'
    : `cannot be written: the disk under it${home ? ` (${home})` : ''} is full; free space there`;
  return `\nthe state database ${why}. Since ${since}, ${h.pending} transition${h.pending === 1 ? '' : 's'} wait${h.pending === 1 ? 's' : ''} in memory, in order, and are written as soon as it takes writes again (${h.detail}).`;
}
