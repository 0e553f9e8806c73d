/**
 * "The screen has stopped changing" on top of a pane's waitForScreen, shared by the tmux pane
 * (tests/harness/claude-tmux.ts) and the node-pty pane (tests/corpus/pty-pane.ts).
 */
import { createHash } from 'node:crypto';

export type WaitForScreen = (accept: (screen: string) => boolean, what: string, timeoutMs?: number) => Promise<string>;
export interface StableOptions { quietMs?: number; timeoutMs?: number; accept?: (screen: string) => boolean }

/**
 * Resolves with the screen once it is accepted and unchanged for `quietMs`; an unaccepted screen
 * restarts the quiet period. Bounded by `timeoutMs`, the message naming `what`.
 */
export function waitStable(waitForScreen: WaitForScreen, what: string, { quietMs = 500, timeoutMs = 20_000, accept = () => true }: StableOptions = {}): Promise<string> {
  let print = '';
  let since = Date.now();
  return waitForScreen((s) => {
    const p = accept(s) ? createHash('sha256').update(s).digest('hex') : '';
    if (p === '' || p !== print) {
      print = p;
      since = Date.now();
      return false;
    }
    return Date.now() - since >= quietMs;
  }, `${what} (screen unchanged for ${quietMs} ms)`, timeoutMs);
}
