/**
 * "The screen has stopped changing" on top of a pane's waitForScreen, shared by the tmux pane
 * (tests/harness/claude-tmux.ts) and the node-pty pane (tests/corpus/pty-pane.ts).
 */
import { createHash } from 'node:crypto';

export type WaitForScreen = (accept: (screen: string) => boolean, what: string, timeoutMs?: number) => Promise<string>;
export interface StableOptions { quietMs?: number; timeoutMs?: number; accept?: (screen: string) => boolean }

/**
 * What a screen is compared by: Claude Code blinks the `●` of a tool call that waits (a
 * permission dialog, a question menu) on and off every ~0.6 s, which is not the screen changing.
 * Compared raw, a dialog was "unchanged for 500 ms" only when one blink gap happened to run long:
 * 3-5 s per dialog (measured), most of a dialog test's time.
 */
const blinkFree = (screen: string): string => screen.replace(/^● /gm, '  ');

/**
 * Resolves with the screen once it is accepted and unchanged for `quietMs` (a blinking tool
 * bullet aside); an unaccepted screen restarts the quiet period. Bounded by `timeoutMs`, the
 * message naming `what`.
 */
export function waitStable(waitForScreen: WaitForScreen, what: string, { quietMs = 500, timeoutMs = 20_000, accept = () => true }: StableOptions = {}): Promise<string> {
  let print = '';
  let since = Date.now();
  return waitForScreen((s) => {
    const p = accept(s) ? createHash('sha256').update(blinkFree(s)).digest('hex') : '';
    if (p === '' || p !== print) {
      print = p;
      since = Date.now();
      return false;
    }
    return Date.now() - since >= quietMs;
  }, `${what} (screen unchanged for ${quietMs} ms)`, timeoutMs);
}
