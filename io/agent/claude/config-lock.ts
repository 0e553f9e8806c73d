/**
 * Claude Code guards its own read-modify-write of ~/.claude.json with a proper-lockfile lock:
 * a directory `<config path>.lock`, its mtime refreshed every few seconds while held and
 * considered stale after 10 s (read from the 2.1.332 binary: `lockfilePath: \`${e}.lock\``).
 * Workers rewrite that file as they start, so seeding trust while one starts could lose either
 * write. Taking the same lock makes the two writers take turns.
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { RefusedError } from '../../../contract/errors.ts';

/** proper-lockfile's default: a holder refreshes its mtime well inside this. */
export const CONFIG_LOCK_STALE_MS = 10_000;

export async function withClaudeConfigLock<T>(configPath: string, work: () => T, opts: { timeoutMs?: number | undefined } = {}): Promise<T> {
  const lockDir = `${configPath}.lock`;
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let age = 0;
    try {
      age = Date.now() - statSync(lockDir).mtimeMs;
    } catch {
      continue; // released between our mkdir and stat: try again at once
    }
    if (age > CONFIG_LOCK_STALE_MS) {
      rmSync(lockDir, { recursive: true, force: true }); // its holder died without releasing
      continue;
    }
    if (Date.now() > deadline) {
      throw new RefusedError(
        'claude-config-locked',
        `${configPath} stayed locked by another writer (${lockDir}) for ${timeoutMs} ms; nothing was changed. Try again once Claude Code has started.`,
        { configPath, lockDir },
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  try {
    return work();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}
