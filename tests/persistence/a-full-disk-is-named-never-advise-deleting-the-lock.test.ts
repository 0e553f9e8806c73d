/**
 * Rule (issue 25, item 1): after a full disk, taking the state directory's lock fails because the
 * disk is full — and the person is told that, never to delete daemon.lock. Deleting the lock is
 * advised only for a damaged lock file with no live daemon named in it. Runs on a real 1 MB tmpfs
 * (made and removed here; skipped with the reason where the machine refuses to mount).
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireHomeLock } from '../../persistence/home-lock.ts';
import { makeTempDir } from '../helpers/temp.ts';

function mountTmpfs(dir: string, size: string): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (err) {
    return String((err as { stderr?: Buffer }).stderr ?? err).trim() || 'mount failed';
  }
}

/** Fills the file system under `dir` until it refuses another byte. */
function fill(dir: string): void {
  const chunk = Buffer.alloc(64 * 1024, 1);
  for (let i = 0; ; i++) {
    try {
      writeFileSync(join(dir, `fill-${i}`), chunk);
    } catch {
      try {
        writeFileSync(join(dir, `fill-small-${i}`), Buffer.alloc(512, 1));
      } catch {
        return;
      }
    }
  }
}

describe('a full disk is named; never advise deleting the lock', () => {
  it('the lock of a state directory on a full disk is refused as state-disk-full, with the disk as the cause', (ctx) => {
    const tmp = makeTempDir('full-disk-lock');
    const mnt = join(tmp.path, 'mnt');
    mkdirSync(mnt);
    const refused = mountTmpfs(mnt, '1m');
    if (refused) {
      tmp.cleanup();
      ctx.skip(`this machine refuses to mount a tmpfs: ${refused}`);
      return;
    }
    try {
      const home = join(mnt, 'state');
      mkdirSync(home, { mode: 0o700 });
      fill(mnt);
      let error: { code?: string; message?: string } | null = null;
      try {
        acquireHomeLock(home).release();
      } catch (err) {
        error = err as { code?: string; message?: string };
      }
      expect(error, 'the lock was taken on a full disk').not.toBeNull();
      expect(error!.code).toBe('state-disk-full');
      expect(error!.message).toMatch(/disk under it is full/);
      expect(error!.message).not.toMatch(/delete/i);
    } finally {
      execFileSync('umount', [mnt], { stdio: 'ignore' });
      rmSync(mnt, { recursive: true, force: true });
      tmp.cleanup();
    }
  });
});
