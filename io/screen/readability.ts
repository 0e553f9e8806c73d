/**
 * "Can I tell?" (control-plane §3.5): the widest row, right-trimmed of whitespace, spans at least
 * 40 columns. Narrower panes word-wrap the agent's own hints (`Esc to` / `cancel`), so every
 * classifier goes blind; a false here means a negative answer elsewhere proves nothing.
 */
import type { Screen } from './types.ts';

export const MIN_READABLE_COLUMNS = 40;

export function isReadable(screen: Screen): boolean {
  for (const row of screen.lines) {
    // cheap length test first: trimming is only needed for rows that could qualify
    if (row.text.length >= MIN_READABLE_COLUMNS && row.text.trimEnd().length >= MIN_READABLE_COLUMNS) return true;
  }
  return false;
}
