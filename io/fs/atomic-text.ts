/**
 * Writing a text file so that a reader never sees half of it: a temp file in the same
 * directory (rename is only atomic within one filesystem), flushed, re-read and checked by the
 * caller, then renamed over the target. On any failure the temp file is removed and the target
 * is untouched. The person's agent config files (~/.claude.json, ~/.codex/config.toml) go
 * through here.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

export function writeTextAtomically(target: string, text: string, opts: { mode?: number; verify?: (written: string) => void } = {}): void {
  const temp = join(dirname(target), `.${basename(target)}.kingshand-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  try {
    const fd = openSync(temp, 'wx', opts.mode ?? 0o644);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    opts.verify?.(readFileSync(temp, 'utf8'));
    renameSync(temp, target);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}
