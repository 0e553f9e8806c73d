/**
 * Making the state directory usable (the paths themselves are contract/home.ts): created 0700
 * when new, refused with the fix when it is unusable, shared or someone else's folder.
 */
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { makePrivateDir } from './private-files.ts';
import { whyUnwritable, type WriteBlock } from './why-unwritable.ts';
import { UsageError } from '../../contract/errors.ts';
import { homePaths, type HomePaths } from '../../contract/home.ts';

/** A Unix socket path longer than this cannot be bound (sun_path is 108 bytes on Linux). */
const MAX_SOCKET_PATH = 100;

/** Entries that mark a directory as a kingshand state directory (any one is enough). */
// workspace.json: `hand init` may be the first thing to write here (io/workspace/recorded.ts).
const STATE_MARKERS = ['fleet.db', 'daemon.lock', 'daemon.log', 'daemon.out', 'daemon.pid', 'hand.sock', 'workspace.json'];

/**
 * Creates the home (mode 0700) if needed and proves it is usable; a bad home is a usage error
 * naming the fix. A directory that was already there keeps its mode: it may be /tmp (1777) or a
 * person's own folder, so one that is not empty must already be a state directory, and one that
 * others can write is refused rather than "fixed" (they could plant a socket the CLI would trust).
 */
export function ensureHome(home: string): HomePaths {
  // Refused before anything is created: a home too long for its socket was made, then refused.
  const paths = homePaths(home);
  if (Buffer.byteLength(paths.socket) > MAX_SOCKET_PATH) {
    throw new UsageError('home-path-too-long', `the state directory path is too long for a Unix socket (${paths.socket}); nothing was created. Use a shorter --home.`, { home });
  }
  let created: string | undefined;
  try {
    created = makePrivateDir(home);
  } catch (err) {
    const why = causeOf(err, home);
    throw new UsageError('home-unusable', `cannot create the state directory ${home}: ${why ? `${why.text}. Fix: ${why.fix}` : `${(err as Error).message}. Pass --home <dir> (or set HAND_HOME) to a directory you can write`}.`, { home, ...(why && { cause: why.cause, where: why.where }) });
  }
  const st = statSync(home);
  if (!st.isDirectory()) {
    throw new UsageError('home-unusable', `the state directory ${home} is not a directory. Pass --home <dir> pointing at a directory.`, { home });
  }
  try {
    // access(W_OK) answers EROFS for a read-only mount and EPERM for the immutable bit, root or not.
    accessSync(home, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (err) {
    // The cause, not always the modes: a read-only file system or the immutable bit are not fixed by chmod (issue 43).
    const why = causeOf(err, home) ?? whyUnwritable(home, 'EACCES')!;
    throw new UsageError('home-unusable', `the state directory ${home} cannot be used: ${why.text}. Fix: ${why.fix}, or pass --home <dir>.`, { home, cause: why.cause, where: why.where });
  }
  if (created === undefined) {
    const entries = readdirSync(home);
    if (entries.length > 0 && !entries.some((e) => STATE_MARKERS.includes(e))) {
      throw new UsageError('home-not-a-state-dir', `${home} is not empty and is not a kingshand state directory; nothing was changed in it. Pass --home <dir> naming a new or empty directory.`, { home });
    }
    if ((st.mode & 0o022) !== 0) {
      throw new UsageError('home-shared', `the state directory ${home} is writable by other users (mode ${(st.mode & 0o7777).toString(8)}); its mode was left alone. Use a new --home, or make it private yourself: chmod 700 ${home}`, { home });
    }
  }
  return paths;
}

/** The cause of a failed make or access of the home, by its errno (null for another error). */
function causeOf(err: unknown, home: string): WriteBlock | null {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' ? whyUnwritable(home, code) : null;
}

/**
 * The paths of a state directory for a command that only talks to its daemon (`daemon stop`,
 * `daemon status`): nothing is created and no write access is needed — the socket is enough.
 * An immutable or read-only home made even `daemon stop` refuse with "chmod 700" advice
 * (issue 25 #4). A home others can write is still refused: they could plant the socket.
 */
export function existingHome(home: string): HomePaths {
  const paths = homePaths(home);
  let st;
  try {
    st = statSync(home);
  } catch {
    return paths; // no directory, no daemon: connecting says so
  }
  if (!st.isDirectory()) throw new UsageError('home-unusable', `the state directory ${home} is not a directory. Pass --home <dir> pointing at a directory.`, { home });
  if ((st.mode & 0o022) !== 0) {
    throw new UsageError('home-shared', `the state directory ${home} is writable by other users (mode ${(st.mode & 0o7777).toString(8)}); its socket cannot be trusted. Use a new --home, or make it private yourself: chmod 700 ${home}`, { home });
  }
  return paths;
}
