/**
 * An agent's start held open by a named pipe it reads while it loads (Gemini CLI reads the
 * worktree's GEMINI.md), and its release: the reader blocked on the pipe gets `text` and goes on.
 * Released before the pane is killed: a Gemini CLI held there outlived the kill of its pane.
 */
import { closeSync, constants, lstatSync, openSync, writeSync } from 'node:fs';

/** Writes `text` to the pipe if it is still one and someone reads it; otherwise nothing (never blocks). */
export function releaseHeldStart(pipe: string, text = 'Carry on as briefed.\n'): void {
  try {
    if (!lstatSync(pipe).isFIFO()) return;
    // Non-blocking: with no reader this fails (ENXIO) rather than waiting for one.
    const fd = openSync(pipe, constants.O_WRONLY | constants.O_NONBLOCK);
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
  } catch {
    // gone, no longer a pipe, or nobody reading it: nothing is held
  }
}
