/**
 * A state directory on its own small file system (a tmpfs the test mounts and removes): the
 * disk-full faults of issue 25. The mount lives outside the world's temp dir, which only links
 * to it, so the world's cleanup never meets a mount point. Where the machine refuses to mount,
 * `refused` says why (the test skips or says so) and nothing is linked.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from './temp.ts';

export interface SmallDisk {
  /** Mounts the tmpfs and links `home` to a 0700 directory on it; give it as a world's beforeHome. */
  beforeHome(home: string): void;
  /** The mount point, once mounted. */
  readonly mounted: string | null;
  /** Why the mount was refused, if it was. */
  readonly refused: string | null;
  /** Fills the disk to its last block; returns the filler (remove it to give the space back), or null when not mounted. */
  fill(): string | null;
  /** Unmounts (lazily: a dying tmux server may hold its socket there a moment longer) and removes the mount point. */
  cleanup(): void;
}

export function smallDisk(label: string, size: string): SmallDisk {
  const dir = makeTempDir(label);
  let mounted: string | null = null;
  let refused: string | null = null;
  return {
    beforeHome(home) {
      const mnt = join(dir.path, 'disk');
      mkdirSync(mnt);
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', mnt], { stdio: 'pipe' });
        mounted = mnt;
        mkdirSync(join(mnt, 'state'), { mode: 0o700 });
        execFileSync('ln', ['-s', join(mnt, 'state'), home]);
      } catch (err) {
        refused = String((err as { stderr?: Buffer }).stderr ?? err).trim();
      }
    },
    get mounted() {
      return mounted;
    },
    get refused() {
      return refused;
    },
    fill() {
      if (!mounted) return null;
      const filler = join(mounted, 'filler');
      const chunk = Buffer.alloc(16 * 1024, 1);
      for (;;) {
        try {
          writeFileSync(filler, chunk, { flag: 'a' });
        } catch {
          return filler;
        }
      }
    },
    cleanup() {
      if (mounted) execFileSync('umount', ['-l', mounted], { stdio: 'pipe' });
      dir.cleanup();
    },
  };
}
