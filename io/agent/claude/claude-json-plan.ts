/**
 * What dispatch will do to the `~/.claude.json` the worker reads, decided before anything is
 * created: trust it (the file exists), or create the minimal file (onboarding done and the
 * worktree's trust entry, written by seedTrust through the locked, atomic path). A worker whose
 * config directory is unknown or missing is refused with the fix: it would otherwise sit on the
 * folder-trust dialog with nobody told (the seed returned 'no-config' silently).
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RefusedError } from '../../../contract/errors.ts';

/** The directory whose .claude.json a Claude Code launched with `env` reads (checked against 2.1.332). */
export function claudeConfigDirOf(env: Record<string, string | undefined>): string | undefined {
  return env.CLAUDE_CONFIG_DIR || env.HOME || undefined;
}

export interface ClaudeJsonPlan {
  claudeJson: string;
  /** True when the file is absent and dispatch creates the minimal one at launch setup. */
  created: boolean;
  /** In a person's words, for dispatch's text output. */
  says: string;
}

export function planClaudeJson(env: Record<string, string | undefined>): ClaudeJsonPlan {
  const dir = claudeConfigDirOf(env);
  if (!dir) {
    throw new RefusedError('claude-config-dir-unknown', 'the worker would run with neither HOME nor CLAUDE_CONFIG_DIR set, so its folder trust cannot be recorded and it would stop on the trust dialog; nothing was created. Set HOME (or CLAUDE_CONFIG_DIR) in the environment you run hand dispatch from.');
  }
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    const via = env.CLAUDE_CONFIG_DIR ? 'CLAUDE_CONFIG_DIR' : 'HOME';
    throw new RefusedError('claude-config-dir-missing', `the worker's ${via} ${dir} is not a directory, so its folder trust cannot be recorded; nothing was created. Create it (mkdir -p ${dir}) or point ${via} at an existing one, then dispatch again.`, { dir, via });
  }
  const claudeJson = join(dir, '.claude.json');
  const created = !existsSync(claudeJson);
  return {
    claudeJson,
    created,
    says: created ? `${claudeJson} did not exist: it is created with onboarding done and this worktree trusted` : `${claudeJson}: this worktree is trusted in it (other keys kept)`,
  };
}

/**
 * The same plan for a worker in kingshand's sandbox: its .claude.json is a file of its own in
 * `configDir` (io/agent/claude/sandbox-home.ts), made from the person's, which is never written.
 */
export function planSandboxedClaudeJson(env: Record<string, string | undefined>, configDir: string): ClaudeJsonPlan {
  const claudeJson = join(configDir, '.claude.json');
  const persons = env.CLAUDE_CONFIG_DIR ? join(env.CLAUDE_CONFIG_DIR, '.claude.json') : env.HOME ? join(env.HOME, '.claude.json') : null;
  const from = persons && existsSync(persons) ? `made from ${persons} (your other projects left out; your file is not written)` : 'made with onboarding done';
  return { claudeJson, created: !existsSync(claudeJson), says: `${claudeJson}: the worker's own, ${from}, with this worktree trusted` };
}
