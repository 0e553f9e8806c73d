/**
 * A throwaway HOME for tests and demos that launch the real Claude Code or the mock: the minimal
 * seed of claude-code.md §4 (onboarding done, key approved, auto-mode notice and nudge seen,
 * each worktree trusted) plus ~/.claude/settings.json. The seed itself lives in
 * tests/harness/claude-env.ts (shared with the e2e environment builder); this adds the guard that a
 * test can never aim it at the person's real home, where it would overwrite ~/.claude.json.
 */
import { realpathSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { resolve } from 'node:path';
import { UsageError } from '../../contract/errors.ts';
import { seedClaudeHome, type ClaudeRenderer, type SeededClaudeHome } from './claude-env.ts';

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

/** The account's home from the user database: $HOME may already point at a test's temp dir. */
function accountHome(): string {
  try {
    return userInfo().homedir;
  } catch {
    return homedir();
  }
}

export interface SeedTestHomeArgs {
  home: string;
  apiKey?: string;
  worktrees: string[];
  manualPermissions?: boolean;
  renderer?: ClaudeRenderer;
}

/** `realHome` is a test seam: the guard's own test aims it at a temp dir instead of risking the real one. */
export function seedTestHome(args: SeedTestHomeArgs, opts: { realHome?: string } = {}): SeededClaudeHome {
  if (real(args.home) === real(opts.realHome ?? accountHome())) {
    throw new UsageError('not-a-throwaway-home', `refusing to seed ${args.home}: it is the real home directory, and seeding would overwrite its ~/.claude.json. Pass a temporary directory.`, {
      home: args.home,
    });
  }
  return seedClaudeHome(args);
}
