/**
 * The state directory ("home"): --home, then HAND_HOME, then the XDG state directory.
 * Everything the daemon writes lives below it (database, socket, logs, briefs, reports).
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export interface HomePaths {
  home: string;
  socket: string;
  /**
   * The socket a worker's hooks speak through (`<home>/voice/hand.sock`): it answers only the open
   * methods (ping, hook), and its directory is the one part of the state directory bound into a
   * worker's sandbox (io/sandbox/worker-sandbox.ts).
   */
  voiceSocket: string;
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
    voiceSocket: join(home, 'voice', 'hand.sock'),
    db: join(home, 'fleet.db'),
    log: join(home, 'daemon.log'),
    daemonOut: join(home, 'daemon.out'),
    lock: join(home, 'daemon.lock'),
    tmuxSocket: join(home, 'tmux.sock'),
    workers: join(home, 'workers'),
  };
}
