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
