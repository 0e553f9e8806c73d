/**
 * The state directory ("home"): --home, then HAND_HOME, then the XDG state directory.
 * Everything the daemon writes lives below it (database, socket, logs, briefs, reports).
 */
import { accessSync, constants, mkdirSync, statSync, chmodSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError } from '../io/errors.ts';

export interface HomePaths {
  home: string;
  socket: string;
  db: string;
  log: string;
  daemonOut: string;
  lock: string;
  tmuxSocket: string;
  workers: string;
}

export function resolveHome(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag) return resolve(flag);
  if (env.HAND_HOME) return resolve(env.HAND_HOME);
  const xdg = env.XDG_STATE_HOME && env.XDG_STATE_HOME.startsWith('/') ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(xdg, 'kingshand');
}

export function homePaths(home: string): HomePaths {
  return {
    home,
    socket: join(home, 'hand.sock'),
    db: join(home, 'fleet.db'),
    log: join(home, 'daemon.log'),
    daemonOut: join(home, 'daemon.out'),
    lock: join(home, 'daemon.lock'),
    tmuxSocket: join(home, 'tmux.sock'),
    workers: join(home, 'workers'),
  };
}

/** A Unix socket path longer than this cannot be bound (sun_path is 108 bytes on Linux). */
const MAX_SOCKET_PATH = 100;

/** Creates the home (mode 0700) if needed and proves it is usable; a bad home is a usage error naming the fix. */
export function ensureHome(home: string): HomePaths {
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new UsageError('home-unusable', `cannot create the state directory ${home}: ${(err as Error).message}. Pass --home <dir> (or set HAND_HOME) to a directory you can write.`, { home });
  }
  const st = statSync(home);
  if (!st.isDirectory()) {
    throw new UsageError('home-unusable', `the state directory ${home} is not a directory. Pass --home <dir> pointing at a directory.`, { home });
  }
  try {
    accessSync(home, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch {
    throw new UsageError('home-unusable', `the state directory ${home} is not readable and writable by you. Fix its permissions (chmod 700 ${home}) or pass --home <dir>.`, { home });
  }
  // The socket inside accepts commands that type into terminals: only its owner may reach it.
  if ((st.mode & 0o077) !== 0) chmodSync(home, 0o700);
  const paths = homePaths(home);
  if (Buffer.byteLength(paths.socket) > MAX_SOCKET_PATH) {
    throw new UsageError('home-path-too-long', `the state directory path is too long for a Unix socket (${paths.socket}). Use a shorter --home.`, { home });
  }
  return paths;
}
