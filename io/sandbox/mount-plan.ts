/**
 * The filesystem a sandboxed worker sees, as a list of mounts, and the bubblewrap arguments that
 * make it. Pure: no file is looked at here (worker-sandbox.ts decides what exists and what goes
 * in the list).
 *
 * The base is the host's whole tree read-only; on top of it, in order of depth (a parent before
 * what lies inside it, so a re-allowed directory inside a hidden one comes back), places are
 * hidden (an empty directory or an empty file stands where they were), made writable, or pinned
 * read-only again inside a writable one. bubblewrap takes its sources from the host's own tree
 * whatever was mounted before, so a later mount never reads through an earlier one.
 */

export type Mount =
  /** Bound from the host, read-only (a place under a hidden one brought back, or a file pinned). `optional`: skipped when gone by the time the sandbox is made. */
  | { kind: 'ro'; path: string; from?: string; optional?: boolean }
  /** A symbolic link as the host has it (an entry of a directory rebuilt entry by entry). */
  | { kind: 'symlink'; path: string; target: string }
  /** Bound from the host, writable. */
  | { kind: 'rw'; path: string; from?: string }
  /** An empty directory (a private tmpfs) where a directory was: nothing of it is reachable. */
  | { kind: 'hide-dir'; path: string }
  /** An empty file where a file was (SandboxSpec.emptyFile, read-only). */
  | { kind: 'hide-file'; path: string };

export interface SandboxSpec {
  mounts: Mount[];
  /**
   * The uid and gid the sandboxed process has inside (root outside is mapped to an ordinary
   * user inside: without the capabilities of root, and able to start a sandbox of its own).
   * Absent: the caller's own ids.
   */
  innerId?: number;
  /** The directory the program starts in (the worktree). */
  cwd: string;
  /** An empty regular file of the daemon's, bound read-only over each hidden file. */
  emptyFile: string;
}

/**
 * A hidden directory is a tiny tmpfs with no write bit: an empty place, not a scratch area (a
 * worker that made it writable again could fill at most this much memory).
 */
const HIDDEN_DIR_BYTES = 64 * 1024;

const depth = (p: string): number => p.split('/').filter(Boolean).length;

/**
 * Mounts ordered so that a place comes after every place that contains it: by depth, the order
 * given kept among equals (a later mount of the same path wins, as bubblewrap applies them).
 */
export function orderMounts(mounts: readonly Mount[]): Mount[] {
  return mounts.map((m, i) => ({ m, i })).sort((a, b) => depth(a.m.path) - depth(b.m.path) || a.i - b.i).map((x) => x.m);
}

/**
 * The bubblewrap command line before the program's argv. Every namespace bubblewrap can make is
 * unshared but the network's (the model API, possibly on loopback, must stay reachable; no secret
 * reachable from inside means nothing on loopback can be asked with kingshand's authority), and
 * a fresh /proc and /dev go with the new process namespace: another process's /proc/<pid>/root,
 * environ or fds (the daemon's among them) do not exist inside.
 */
export function bwrapArgs(bwrap: string, spec: SandboxSpec): string[] {
  const args = [bwrap, '--die-with-parent', '--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  if (spec.innerId !== undefined) args.push('--uid', String(spec.innerId), '--gid', String(spec.innerId));
  // No capability inside, whoever starts it (as root bubblewrap would otherwise keep them).
  args.push('--cap-drop', 'ALL');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  for (const m of orderMounts(spec.mounts)) {
    if (m.kind === 'ro') args.push(m.optional ? '--ro-bind-try' : '--ro-bind', m.from ?? m.path, m.path);
    else if (m.kind === 'symlink') args.push('--symlink', m.target, m.path);
    else if (m.kind === 'rw') args.push('--bind', m.from ?? m.path, m.path);
    else if (m.kind === 'hide-dir') args.push('--perms', '0555', '--size', String(HIDDEN_DIR_BYTES), '--tmpfs', m.path);
    else args.push('--ro-bind', spec.emptyFile, m.path);
  }
  args.push('--chdir', spec.cwd, '--');
  return args;
}
