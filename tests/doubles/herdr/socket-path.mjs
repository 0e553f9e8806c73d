// Socket selection as herdr documents it: --session <name> → HERDR_SOCKET_PATH →
// HERDR_SESSION=<name> → the default socket; the config dir honours XDG_CONFIG_HOME.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function configDir(env) {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'herdr');
}

export function resolveSocketPath(env, session) {
  if (session) return join(configDir(env), 'sessions', session, 'herdr.sock');
  if (env.HERDR_SOCKET_PATH) return env.HERDR_SOCKET_PATH;
  if (env.HERDR_SESSION) return join(configDir(env), 'sessions', env.HERDR_SESSION, 'herdr.sock');
  return join(configDir(env), 'herdr.sock');
}
