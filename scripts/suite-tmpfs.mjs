// The suite's temp files in memory. Every test makes a git repository, worktrees, a database and
// sockets under /tmp and removes them: tens of thousands of files a run. On the machine the suite is
// measured on (ext4, 2 cores) the same files cost a quarter more CPU on disk than in a tmpfs — inodes
// chosen and freed, the journal, writeback, fsyncs (measured on 19 files: 150 → 113 CPU-s, 76 → 59 s)
// — on a suite whose budget is its CPU. So, where it can, `npm test` runs vitest in a mount namespace of
// its own whose /tmp is a fresh tmpfs: the tests still write real files through the kernel, only not
// to a disk, and nothing outside the run sees that /tmp (it goes with the run's last process).
//
// Only as root on Linux (making a mount namespace needs CAP_SYS_ADMIN; a user namespace instead would
// change who owns what, which the SSH tests' second local user and the sandbox depend on). Elsewhere,
// or with KH_SUITE_TMP=disk, the suite runs as before on the machine's own /tmp. Nor for a checkout
// under /tmp: the fresh /tmp would hide the checkout itself (every test file "not found").
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';

// A constant script (no input in it): mount the tmpfs, then run the given argv as it is.
const IN_TMPFS = 'mount -t tmpfs -o mode=1777 kh-suite-tmp /tmp && exec "$@"';
const PREFIX = ['--mount', '--propagation', 'private', '--', '/bin/sh', '-c', IN_TMPFS, 'sh'];

/** What to run for `argv`: inside a tmpfs /tmp of its own when this machine allows it, else `argv` itself. */
export function inSuiteTmpfs(argv) {
  if (process.env.KH_SUITE_TMP === 'disk' || process.platform !== 'linux' || process.getuid?.() !== 0) return { argv, inMemory: false };
  const root = realpathSync(process.cwd());
  if (root === '/tmp' || root.startsWith('/tmp/')) return { argv, inMemory: false, why: `the checkout is under /tmp (${root}), which a tmpfs /tmp would hide` };
  // Tried once, in a few milliseconds: a container without CAP_SYS_ADMIN refuses the mount.
  const trial = spawnSync('unshare', [...PREFIX, 'true'], { stdio: 'ignore', timeout: 5000 });
  if (trial.status !== 0) return { argv, inMemory: false };
  return { argv: ['unshare', ...PREFIX, ...argv], inMemory: true };
}
