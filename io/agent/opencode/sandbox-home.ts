/**
 * OpenCode from homes of the worker's own inside kingshand's sandbox (io/sandbox/agent-home.ts).
 * OpenCode (1.17.19, 1.18.33) keeps its files in four XDG homes: config (the person's settings,
 * providers and plugins: read as they are, read-only, as every file of the person's is inside the
 * sandbox), data (its session database, logs, snapshots and the login, auth.json), state (prompt
 * history, locks) and cache. The worker's data, state and cache are its own, so a worker neither
 * reads the person's conversations and history nor writes beside them; the person's login comes
 * in writable (a provider token refreshed by a worker is everyone's). The person's data and state
 * homes for OpenCode are hidden from every worker (secret-places.ts).
 */
import { join } from 'node:path';
import type { AgentSandboxHome, Env } from '../../sandbox/agent-home.ts';

/**
 * OpenCode's XDG data home for a launch environment (where its `opencode/` data directory is): the
 * person's for the person's environment, the worker's own for a sandboxed worker's.
 */
export function opencodeDataHome(env: Env): string | null {
  return env.XDG_DATA_HOME || (env.HOME ? join(env.HOME, '.local', 'share') : null);
}

export const opencodeSandboxHome: AgentSandboxHome = {
  env: 'XDG_DATA_HOME',
  personsDir: opencodeDataHome,
  readOnly: [],
  shared: ['opencode/auth.json'],
  alsoEnv: { XDG_STATE_HOME: 'state', XDG_CACHE_HOME: 'cache' },
};
