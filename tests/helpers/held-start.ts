/**
 * An agent's start held open by a named pipe it reads while it loads (Gemini CLI reads the
 * worktree's GEMINI.md), and its release. Released before the pane is killed too: a Gemini CLI
 * held there outlived the kill of its pane.
 */
import { closeSync, constants, lstatSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';

/**
 * Lets the start go on, if the pipe is still one and someone reads it (never blocks; otherwise
 * nothing): a plain file with `text` takes the pipe's name first, so a later read of it gets the
 * file, then the read that holds the start gets the same words through the pipe.
 */
export function releaseHeldStart(pipe: string, text = 'Carry on as briefed.\n'): void {
  let fd: number;
  try {
    if (!lstatSync(pipe).isFIFO()) return;
    // Non-blocking: with no reader this fails (ENXIO) rather than waiting for one.
    fd = openSync(pipe, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch {
    return; // gone, no longer a pipe, or nobody reading it: nothing is held
  }
  try {
    writeFileSync(`${pipe}.plain`, text);
    renameSync(`${pipe}.plain`, pipe);
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
