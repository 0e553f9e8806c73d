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
// or with KH_SUITE_TMP=disk, the suite runs as before on the machine's own /tmp.
//
// A checkout under /tmp (a fresh clone made there) would be hidden by the fresh /tmp (every test
// file "not found"): it is carried over. Its directory is bind-mounted aside on /mnt first, the
// tmpfs goes over /tmp, the same path is made in it and the checkout bound there again, so the run
// sees its checkout where it was and every other name under /tmp in memory. All of it in the run's
// own mount namespace: the machine's /mnt and /tmp are untouched.
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';

// Constant scripts (no input in them): mount the tmpfs, then run the given argv as it is. The
// second takes the checkout's path as its first argument (an argument, never part of the script).
const IN_TMPFS = 'mount -t tmpfs -o mode=1777 kh-suite-tmp /tmp && exec "$@"';
const IN_TMPFS_KEEPING = 'mount --bind "$1" /mnt && mount -t tmpfs -o mode=1777 kh-suite-tmp /tmp && mkdir -p "$1" && mount --bind /mnt "$1" && umount /mnt && cd "$1" && shift && exec "$@"';
const unshare = (script) => ['--mount', '--propagation', 'private', '--', '/bin/sh', '-c', script, 'sh'];

/** What to run for `argv`: inside a tmpfs /tmp of its own when this machine allows it, else `argv` itself. */
export function inSuiteTmpfs(argv, root = realpathSync(process.cwd())) {
  if (process.env.KH_SUITE_TMP === 'disk' || process.platform !== 'linux' || process.getuid?.() !== 0) return { argv, inMemory: false };
  if (root === '/tmp') return { argv, inMemory: false, why: 'the checkout is /tmp itself, which a tmpfs /tmp would hide' };
  const underTmp = root.startsWith('/tmp/');
  if (underTmp && !existsSync('/mnt')) return { argv, inMemory: false, why: `the checkout is under /tmp (${root}) and there is no /mnt to carry it over on` };
  const prefix = underTmp ? [...unshare(IN_TMPFS_KEEPING), root] : unshare(IN_TMPFS);
  // Tried once, in a few milliseconds: a container without CAP_SYS_ADMIN refuses the mount. The
  // trial checks that the run would find its own package.json where it is.
  const trial = spawnSync('unshare', [...prefix, 'test', '-f', `${root}/package.json`], { stdio: 'ignore', timeout: 5000 });
  if (trial.status !== 0) return { argv, inMemory: false, ...(underTmp ? { why: `the checkout under /tmp (${root}) could not be carried into a tmpfs /tmp` } : {}) };
  return { argv: ['unshare', ...prefix, ...argv], inMemory: true };
}
