/**
 * The environment a worker starts with, whatever the backend.
 *
 * Source: the environment of the person's `hand dispatch` call — that is where people keep API
 * keys, base URLs and proxies, and a long-running tmux/herdr server would otherwise hand a worker
 * whatever it inherited when it started (control-plane §2.7).
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

export interface WorkerEnvOptions {
  /** Per-project additions; applied last, so they win over every default here. */
  add?: Record<string, string>;
  /** Per-project removals, applied before `add`. */
  remove?: readonly string[];
}

/**
 * The complete environment for a worker process (the host starts it with exactly this, nothing
 * inherited). Pure: never reads process.env itself.
 */
export function buildWorkerEnv(
  callerEnv: Record<string, string | undefined>,
  options: WorkerEnvOptions = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(callerEnv)) {
    if (value !== undefined) env[key] = value;
  }
  for (const key of [...PARENT_SESSION_MARKERS, ...CALLER_TERMINAL_MARKERS]) delete env[key];
  // The box guard refuses to send while a suggestion sits in the box; a worker with suggestions
  // on would refuse steering after most turns. The env var beats settings files (§2.7).
  env.CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION = '0';
  if (!env.TERM) env.TERM = 'xterm-256color';
  for (const key of options.remove ?? []) delete env[key];
  Object.assign(env, options.add ?? {});
  return env;
}
