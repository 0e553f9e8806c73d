/**
 * Exit evidence that no agent draws but the terminal host does: tmux with `remain-on-exit` prints
 * `Pane is dead (status N, <date>)` (or `signal N`) as the last line of a dead pane. It holds for
 * every agent, so it lives in the core rather than in a profile.
 */
import type { ScreenLayout } from './layout.ts';

const PANE_DEAD = /^Pane is dead \((?:status|signal) \d+/;

/** True when row `lastRow` (the last non-blank one) is tmux's dead-pane line. */
export function hostShowsExit(layout: ScreenLayout, lastRow: number): boolean {
  return lastRow >= 0 && PANE_DEAD.test(layout.texts[lastRow]!);
}
