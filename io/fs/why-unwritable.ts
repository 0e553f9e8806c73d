/**
 * Why a place cannot be written, in the words of its cause (issue 43). A read-only state
 * directory was answered "Fix its permissions (chmod 700 …)" and an immutable `workers/` made
 * dispatch fail with "internal error … EPERM": neither is a matter of modes, and chmod fixes
 * neither. The cause is asked where it lives:
 * - EROFS: the file system is mounted read-only — the mount point from /proc/self/mountinfo;
 * - EPERM: the immutable (or append-only) attribute — `lsattr -d` on the place and its parent
 *   (root itself cannot create, change or remove anything in an immutable directory);
 * - EACCES: the modes, the one case chmod is the fix for.
 * Read only on the error path: nothing here runs while writes succeed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { RefusedError } from '../../contract/errors.ts';

export interface WriteBlock {
  cause: 'read-only-file-system' | 'immutable' | 'append-only' | 'permissions' | 'not-permitted';
  /** The place that blocks (the mount point, the directory carrying the attribute, or the path). */
  where: string;
  /** The cause, named with the place ("… is on a read-only file system mounted at /x"). */
  text: string;
  fix: string;
}

/** The mount point holding `path` and whether it is mounted read-only (null when /proc cannot tell). */
export function mountOf(path: string): { mountPoint: string; readOnly: boolean } | null {
  let info: string;
  try {
    info = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return null;
  }
  const target = resolve(path);
  let best: { mountPoint: string; readOnly: boolean } | null = null;
  for (const line of info.split('\n')) {
    const f = line.split(' ');
    if (f.length < 6) continue;
    // Octal escapes (\040 for a space) as the kernel writes them.
    const mountPoint = f[4]!.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
    const inside = target === mountPoint || target.startsWith(mountPoint.endsWith('/') ? mountPoint : `${mountPoint}/`);
    // The last mount of the longest matching point is the one on top.
    if (inside && (!best || mountPoint.length >= best.mountPoint.length)) best = { mountPoint, readOnly: f[5]!.split(',').includes('ro') };
  }
  return best;
}

/** The attribute letters `lsattr -d` prints for `path` (null when it cannot tell: no lsattr, a file system without attributes). */
export function attributesOf(path: string): string | null {
  try {
    const out = execFileSync('lsattr', ['-d', '--', path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 });
    return out.trim().split(/\s+/)[0] ?? null;
  } catch {
    return null;
  }
}

/** The cause of an EROFS, EPERM or EACCES on `path`, or null for any other code. */
export function whyUnwritable(path: string, code: string | undefined): WriteBlock | null {
  if (code === 'EROFS') {
    const m = mountOf(path);
    const at = m ? m.mountPoint : path;
    return {
      cause: 'read-only-file-system', where: at,
      text: `${path} is on a read-only file system (mounted read-only at ${at}); chmod cannot change that`,
      fix: `remount it read-write (mount -o remount,rw ${at})`,
    };
  }
  if (code === 'EPERM') {
    // The attribute that forbids the write sits on the place or on the directory an entry is made in.
    for (const place of [path, dirname(path)]) {
      if (!existsSync(place)) continue;
      const attrs = attributesOf(place);
      if (attrs?.includes('i')) {
        return {
          cause: 'immutable', where: place,
          text: `${place} has the immutable attribute (lsattr -d shows 'i'): nothing in it can be created, changed or removed, not even by root; chmod cannot change that`,
          fix: `clear it with chattr -i ${place} (as root) if it was not set on purpose`,
        };
      }
      if (attrs?.includes('a')) {
        return {
          cause: 'append-only', where: place,
          text: `${place} has the append-only attribute (lsattr -d shows 'a'): nothing in it can be renamed or removed`,
          fix: `clear it with chattr -a ${place} (as root) if it was not set on purpose`,
        };
      }
    }
    return { cause: 'not-permitted', where: path, text: `the operation on ${path} is not permitted (EPERM), and no immutable or append-only attribute was found`, fix: `lsattr -d ${path} and the mount options of its file system (findmnt -T ${path}) say why` };
  }
  if (code === 'EACCES') {
    return { cause: 'permissions', where: path, text: `${path} is not readable and writable by you (its modes)`, fix: `fix its permissions (chmod 700 ${path})` };
  }
  return null;
}

/**
 * A file-system error the daemon met (EROFS, EPERM, EACCES with the path it names) as a refusal
 * that says the cause and the fix; anything else is returned as it was.
 */
export function explainFsError(err: unknown): unknown {
  const e = err as { code?: unknown; path?: unknown; syscall?: unknown } | null;
  if (!e || typeof e.code !== 'string' || typeof e.path !== 'string') return err;
  const block = whyUnwritable(e.path, e.code);
  if (!block) return err;
  return new RefusedError('write-refused', `cannot ${typeof e.syscall === 'string' ? e.syscall : 'write'} ${e.path}: ${block.text}. The request stopped there. Fix: ${block.fix}.`, { path: e.path, cause: block.cause, where: block.where, errno: e.code });
}
