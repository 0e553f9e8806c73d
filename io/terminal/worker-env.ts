/**
 * The environment a worker starts with, whatever the backend.
 *
 * Source: the environment of the person's `hand dispatch` call — that is where people keep the
 * agent's API key, base URLs and proxies, and a long-running tmux/herdr server would otherwise
 * hand a worker whatever it inherited when it started (control-plane §2.7).
 *
 * Kept: only what the allow-list names (issue 24 item 4). A hostile run found AWS_SECRET_ACCESS_KEY
 * and GITHUB_TOKEN from the dispatching shell in a worker's `env`; a worker is an agent running
 * someone else's words, so it gets what the agent needs to run, nothing the person merely has.
 * HAND_HOME is not on the list: the worker's hooks carry `--home` in their settings file instead,
 * so nothing in a worker's environment points it at the daemon's state directory.
 * `--env` pairs are the person's explicit choice and are always applied.
 *
 * Removed: the markers a parent Claude Code session puts on its children. The Hand is itself a
 * Claude Code session, so `hand dispatch` usually runs under them; an inherited
 * CLAUDE_CODE_CHILD_SESSION silently turns off the worker's transcript saving, and the rest make
 * the worker believe it is a sub-process of the Hand (session id, pid, notes dir, IDE port).
 * The list was read from Claude Code 2.1.332, the function that builds a child's environment.
 */

/** Variables a parent Claude Code session (or its Bash tool / hooks / MCP servers) sets for children. */
export const PARENT_SESSION_MARKERS: readonly string[] = [
  'CLAUDECODE',
  'CLAUDE_CODE_ENTRYPOINT',
  'CLAUDE_CODE_CHILD_SESSION',
  'CLAUDE_CODE_SSE_PORT',
  'CLAUDE_CODE_SESSION_ID',
  'CLAUDE_CODE_SESSION_ATTENDED',
  'CLAUDE_CODE_CHILD_NOTES_DIR',
  'CLAUDE_CODE_LAUNCHED_BY_SESSION_IDS',
  'CLAUDE_CODE_STARTER_MAY_HOLD_CONNECTOR_FILE',
  'CLAUDE_CODE_CHROME_MCP_ORG_DENIED',
  'CLAUDE_PID',
  'CLAUDE_EFFORT',
  'CLAUDE_PROJECT_DIR',
  'AI_AGENT',
];

/**
 * Variables that describe the caller's own terminal multiplexer: the worker runs in ours, and a
 * stale TMUX would point tools inside the worker at the person's tmux server.
 */
export const CALLER_TERMINAL_MARKERS: readonly string[] = ['TMUX', 'TMUX_PANE'];

/** Names kept exactly (the terminal, the locale, the user, proxies and CA files, the agent's switches). */
const ALLOWED_NAMES = new Set([
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TZ', 'TERM', 'COLORTERM', 'TMPDIR',
  'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'no_proxy', 'all_proxy',
  'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR',
  // Where per-user directories are (the real-Claude harness points XDG_RUNTIME_DIR at its scratch).
  'XDG_RUNTIME_DIR', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME',
  // Claude Code 2.1.332 reads these (telemetry and updater switches, running as root in a sandbox).
  'IS_SANDBOX', 'DISABLE_TELEMETRY', 'DISABLE_ERROR_REPORTING', 'DISABLE_AUTOUPDATER', 'DISABLE_BUG_COMMAND',
  'DISABLE_COST_WARNINGS', 'DISABLE_NON_ESSENTIAL_MODEL_CALLS',
  // Where the person's Chromium is, for the worker's browser checks (io/browser/run-check.ts): a path, no secret.
  'HAND_CHROMIUM',
]);

/**
 * Prefixes kept: the locale family, the agent's own API and config variables, git identity, and
 * the project's mock-agent test hooks. A credential for anything else (AWS_*, GITHUB_TOKEN,
 * NPM_TOKEN, GH_*, OPENAI_*) matches none of these.
 */
const ALLOWED_PREFIXES = ['LC_', 'ANTHROPIC_', 'CLAUDE_', 'CLAUDE_CODE_', 'GIT_AUTHOR_', 'GIT_COMMITTER_', 'KH_MOCK_'];

/** Whether a caller variable may reach a worker (the allow-list above). */
export function isAllowedWorkerVar(name: string): boolean {
  return ALLOWED_NAMES.has(name) || ALLOWED_PREFIXES.some((p) => name.startsWith(p));
}

/**
 * Splits the caller's environment by the allow-list: what a worker may get, and the names of
 * what it may not (names only — dispatch reports them; the values are never repeated).
 */
export function allowListEnv(callerEnv: Record<string, string | undefined>, agentNames: readonly string[] = []): { kept: Record<string, string>; leftOut: string[] } {
  const kept: Record<string, string> = {};
  const leftOut: string[] = [];
  for (const [key, value] of Object.entries(callerEnv)) {
    if (value === undefined) continue;
    // `agentNames`: what one agent needs beyond the shared list (its profile's workerEnv), for its workers only.
    if (isAllowedWorkerVar(key) || agentNames.includes(key)) kept[key] = value;
    else leftOut.push(key);
  }
  return { kept, leftOut: leftOut.sort() };
}

export interface WorkerEnvOptions {
  /** Per-project additions; applied last, so they win over every default here. */
  add?: Record<string, string>;
  /** Per-project removals, applied before `add`. */
  remove?: readonly string[];
  /** Names this worker's agent needs beyond the shared allow-list (its profile's workerEnv). */
  agentNames?: readonly string[];
}

/**
 * The complete environment for a worker process (the host starts it with exactly this, nothing
 * inherited). Pure: never reads process.env itself.
 */
export function buildWorkerEnv(
  callerEnv: Record<string, string | undefined>,
  options: WorkerEnvOptions = {},
): Record<string, string> {
  const env = allowListEnv(callerEnv, options.agentNames).kept;
  for (const key of [...PARENT_SESSION_MARKERS, ...CALLER_TERMINAL_MARKERS]) delete env[key];
  // The box guard refuses to send while a suggestion sits in the box; a worker with suggestions
  // on would refuse steering after most turns. The env var beats settings files (§2.7).
  env.CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION = '0';
  if (!env.TERM) env.TERM = 'xterm-256color';
  for (const key of options.remove ?? []) delete env[key];
  Object.assign(env, options.add ?? {});
  return env;
}
