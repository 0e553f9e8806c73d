/**
 * A pane whose screen is a label, for the pane feed's tests: `set` changes it unheard, `changed`
 * pushes what tmux's %output would (with the burst's repaint keys, if given), `draw` does both,
 * `exit` ends the pane; a screen labelled `fail` cannot be read. `reads` counts the reads;
 * `drawnAfterRead` finishes the frame just after the next read has caught it (unheard).
 */
import type { PaneEvent, ReadResult, TerminalHost } from '../../../io/terminal/types.ts';
import type { Screen } from '../../../io/screen/types.ts';

export function labelPane(first: string) {
  let label = first;
  let reads = 0;
  let afterRead: string | null = null;
  let listener: ((e: PaneEvent) => void) | null = null;
  const host = {
    survivesRestart: true,
    subscribe: (_id: string, l: (e: PaneEvent) => void) => ((listener = l), () => (listener = null)),
    readVisible: async (): Promise<ReadResult> => {
      reads++;
      const caught = label;
      if (afterRead !== null) [label, afterRead] = [afterRead, null];
      return caught === 'fail' ? { ok: false, error: 'no answer' } : { ok: true, screen: { rows: [], cols: 120, label: caught } as unknown as Screen };
    },
  } as unknown as TerminalHost;
  const pane = {
    host,
    get reads() {
      return reads;
    },
    set(next: string) {
      label = next;
    },
    drawnAfterRead(next: string) {
      afterRead = next;
    },
    changed(keys?: number[]) {
      listener?.(keys ? { type: 'changed', repaints: keys } : { type: 'changed' });
    },
    draw(next: string) {
      pane.set(next);
      pane.changed();
    },
    exit(code: number) {
      listener?.({ type: 'exited', code } as PaneEvent);
    },
  };
  return pane;
}

/** The label a labelPane's screen carries. */
export const labelOf = (screen: Screen): string => (screen as unknown as { label: string }).label;
