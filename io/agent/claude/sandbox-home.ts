/**
 * Claude Code from a config directory of the worker's own (CLAUDE_CONFIG_DIR) inside kingshand's
 * sandbox (io/sandbox/agent-home.ts). 2.1.332 then reads and writes `<dir>/.claude.json` (and
 * never $HOME/.claude.json), `<dir>/settings.json`, `<dir>/.credentials.json` and keeps its
 * transcripts in `<dir>/projects`.
 *
 * The worker's `.claude.json` starts as a copy of the person's (their onboarding, their account,
 * their approvals and user-level MCP servers, as a worker had them before) without the person's
 * other projects, then dispatch's trust seed adds the worktree. The person's settings,
 * instructions, commands, agents, skills and plugins come in read-only; their login writable
 * (a token refreshed by one worker is everyone's).
 */
import { existsSync, readFileSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { claimRegularFile, writePrivateAtomically, type AgentSandboxHome, type Env } from '../../sandbox/agent-home.ts';

/** The person's own config directory for this launch environment (their CLAUDE_CONFIG_DIR wins). */
export function personsClaudeDir(env: Env): string | null {
  return env.CLAUDE_CONFIG_DIR || (env.HOME ? join(env.HOME, '.claude') : null);
}

/** The person's .claude.json: $CLAUDE_CONFIG_DIR/.claude.json when they set it, else $HOME/.claude.json. */
export function personsClaudeJson(env: Env): string | null {
  if (env.CLAUDE_CONFIG_DIR) return join(env.CLAUDE_CONFIG_DIR, '.claude.json');
  return env.HOME ? join(env.HOME, '.claude.json') : null;
}

/** Bigger than any real .claude.json; a larger one is not copied (the seed then makes a minimal one). */
const MAX_CLAUDE_JSON = 16 * 1024 * 1024;

function copyClaudeJson(from: string | null, to: string): void {
  if (!from) return;
  let config: unknown;
  try {
    const st = lstatSync(from);
    if (!st.isFile() || st.size > MAX_CLAUDE_JSON) return;
    config = JSON.parse(readFileSync(from, 'utf8'));
  } catch {
    return;
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return;
  // The person's other projects (their histories, allowed tools, trust) are not this worker's.
  const { projects: _projects, ...rest } = config as Record<string, unknown>;
  writePrivateAtomically(to, `${JSON.stringify(rest, null, 2)}\n`);
}

export const claudeSandboxHome: AgentSandboxHome = {
  env: 'CLAUDE_CONFIG_DIR',
  personsDir: personsClaudeDir,
  readOnly: ['settings.json', 'CLAUDE.md', 'commands', 'agents', 'skills', 'plugins', 'output-styles', 'keybindings.json'],
  shared: ['.credentials.json'],
  // Once: afterwards the file is the worker's agent's own (its sessions, its tips, its trust).
  prepare(_personsDir, workersDir, env) {
    const target = join(workersDir, '.claude.json');
    // The worker writes this directory: a link or anything else it left where the file goes is
    // removed before the seed reads or writes it (never followed into a file of the person's).
    claimRegularFile(target);
    if (!existsSync(target)) copyClaudeJson(personsClaudeJson(env), target);
  },
};
