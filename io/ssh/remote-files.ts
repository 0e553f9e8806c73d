/**
 * Files on the far side, moved over the host's one ssh connection: content travels over stdin
 * (write) or stdout (read), paths as quoted argv into constant scripts — never a shell string
 * made of input. A brief goes there this way; a report comes back this way.
 */
import { RemoteCommandError, runRemote } from './run-remote.ts';
import type { SshTarget } from './ssh-command.ts';

/**
 * $1 = file: made 0600 in a 0700 directory (a brief or a config may hold what others should not
 * read), through a temp file renamed over it (a reader sees the old or the new file, never half);
 * a symlink (a dotfile manager's) is written through, the link kept.
 */
const WRITE = 'umask 077; t=$1; if [ -L "$t" ]; then t=$(readlink -f -- "$t") || exit 1; fi; d=$(dirname -- "$t") && mkdir -p -- "$d" && cat > "$t.kh-tmp" && mv -f -- "$t.kh-tmp" "$t"';
/** $1 = file: its bytes, or exit 3 when it is not there (so "absent" is told from a failure). */
const READ = 'test -e "$1" || exit 3; cat -- "$1"';
/** $1 = directory: its real path (symlinks resolved), as Claude Code keys folder trust. */
const REAL_DIR = 'cd -P -- "$1" && pwd -P';

export async function writeRemoteFile(target: SshTarget, path: string, text: string): Promise<void> {
  await runRemote(target, ['sh', '-c', WRITE, 'sh', path], text);
}

/** The file's text, or null when it is not there; an ssh failure is thrown (could not tell). */
export async function readRemoteFile(target: SshTarget, path: string): Promise<string | null> {
  try {
    return await runRemote(target, ['sh', '-c', READ, 'sh', path]);
  } catch (err) {
    if (err instanceof RemoteCommandError && !err.unreachable && err.exitCode === 3) return null;
    throw err;
  }
}

export async function remoteRealDir(target: SshTarget, path: string): Promise<string> {
  return (await runRemote(target, ['sh', '-c', REAL_DIR, 'sh', path])).trim();
}

/**
 * $1 = a file in a worker's own directory there (issue 37: the far worker may have planted a link
 * at its name): made through a fresh temp name (mktemp, in a directory that is not a link) and
 * renamed over the name — a link there is removed first and never written through, a directory
 * there is refused (exit 5). 0600, its directory made 0700.
 */
const WRITE_OWN = 'umask 077; t=$1; d=$(dirname -- "$t") && mkdir -p -- "$d" || exit 1; if [ -L "$d" ]; then exit 4; fi; if [ -d "$t" ] && [ ! -L "$t" ]; then exit 5; fi; tmp=$(mktemp "$d/.kh-own.XXXXXXXXXX") || exit 1; cat > "$tmp" || { rm -f -- "$tmp"; exit 1; }; if [ -L "$t" ]; then rm -f -- "$t"; fi; mv -f -- "$tmp" "$t"';

/** A file of the daemon's in a worker's own directory there: a link at its name is replaced, never written through. */
export async function writeRemoteOwn(target: SshTarget, path: string, text: string): Promise<void> {
  try {
    await runRemote(target, ['sh', '-c', WRITE_OWN, 'sh', path], text);
  } catch (err) {
    if (err instanceof RemoteCommandError && !err.unreachable && (err.exitCode === 4 || err.exitCode === 5)) {
      throw new Error(`${path} there is ${err.exitCode === 4 ? 'in a directory that is a symbolic link' : 'a directory'}; the daemon writes a worker's files only as files of its own. Remove it there, then try again.`);
    }
    throw err;
  }
}

/** $1 = a directory there: made (0700) with its parents. */
const MAKE_DIR = 'umask 077; mkdir -p -- "$1" && [ -d "$1" ] && [ ! -L "$1" ]';

export async function makeRemoteDir(target: SshTarget, path: string): Promise<void> {
  await runRemote(target, ['sh', '-c', MAKE_DIR, 'sh', path]);
}

/**
 * $1 = a file a worker wrote there (its report), $2 = the most bytes to send back. Refused, by
 * exit code, when it is a link (4), not a regular file (5), not the far account's own or a file
 * with a second name (6), or in a directory that is a link (7); absent is 3. At most $2 + 1 bytes
 * come back (`head -c`), so a file that grows, or is swapped for /dev/zero after the checks, is
 * still cut, and the caller tells a cut by the extra byte. A FIFO swapped in after the checks holds
 * the read until the ssh call's own bound.
 */
const READ_UNTRUSTED = 'f=$1; if [ -L "$(dirname -- "$f")" ]; then exit 7; fi; if [ -L "$f" ]; then exit 4; fi; [ -e "$f" ] || exit 3; [ -f "$f" ] || exit 5; [ -n "$(find "$f" -prune -type f -links 1 -user "$(id -u)" 2>/dev/null)" ] || exit 6; head -c "$(($2 + 1))" -- "$f"';

const FAR_REFUSALS: Record<number, string> = {
  4: 'is a symbolic link, and the daemon never follows a link a worker made',
  5: 'is not a regular file (a FIFO, a socket, a device or a directory)',
  6: "is not a file of the far account's own with one name (another user's file, or a hard link)",
  7: 'is in a directory that is a symbolic link',
};

export type RemoteUntrustedRead = { kind: 'absent' } | { kind: 'refused'; reason: string } | { kind: 'read'; text: string; truncated: boolean };

/** A worker's file there, read as io/fs/untrusted-file.ts reads one here: never through a link, regular files only, capped. */
export async function readRemoteUntrusted(target: SshTarget, path: string, maxBytes: number): Promise<RemoteUntrustedRead> {
  let out: string;
  try {
    out = await runRemote(target, ['sh', '-c', READ_UNTRUSTED, 'sh', path, String(maxBytes)]);
  } catch (err) {
    if (err instanceof RemoteCommandError && !err.unreachable && err.exitCode === 3) return { kind: 'absent' };
    const why = err instanceof RemoteCommandError && !err.unreachable && err.exitCode !== undefined ? FAR_REFUSALS[err.exitCode] : undefined;
    if (why) return { kind: 'refused', reason: `${path.slice(path.lastIndexOf('/') + 1)} ${why}` };
    throw err;
  }
  const bytes = Buffer.from(out, 'utf8');
  return bytes.length > maxBytes ? { kind: 'read', text: bytes.subarray(0, maxBytes).toString('utf8'), truncated: true } : { kind: 'read', text: out, truncated: false };
}
