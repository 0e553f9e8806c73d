/**
 * One real Claude Code session for a test: a throwaway HOME and git worktree (kh-test- temp
 * dirs), the seed, the fake model server's url, and the binary in a private tmux server.
 * dispose() kills the tmux server, waits for the program to leave and removes the dirs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { claudeTestEnv, seedClaudeHome, type ClaudeRenderer } from './claude-env.ts';
import { seedTrust } from '../../io/agent/claude/trust-seed.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { requireClaudeBinary } from './claude-binary.ts';
import { launchInTmux, type TmuxPane } from './claude-tmux.ts';

export interface RealClaudeOptions {
  baseUrl: string;
  renderer: ClaudeRenderer;
  /** Seed the worktree's trust entry with the product's seedTrust (default true). */
  trusted?: boolean;
  manualPermissions?: boolean;
  promptSuggestions?: boolean;
  /** Use ANTHROPIC_API_KEY (approved in the seed) instead of the default bearer token. */
  apiKey?: string;
  /** PATH of the run (claude-env.ts DEFAULT_PATH when absent). */
  path?: string;
}

export interface RealClaude {
  pane: TmuxPane;
  home: string;
  worktree: string;
  claudeJsonPath: string;
  dispose(): Promise<void>;
}

/** The live input box: U+276F then U+00A0 at the start of a row (a menu row or echo has a plain space). */
export const LIVE_BOX = /^❯\u00A0/m;
export const WORKING_HINT = 'esc to interrupt';

export function showsIdleBox(screen: string): boolean {
  return LIVE_BOX.test(screen) && !screen.includes(WORKING_HINT);
}

function gitInit(dir: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore', env: { PATH: '/usr/bin:/bin', HOME: dir } });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=kh', '-c', 'user.email=kh@example.invalid', 'commit', '-q', '--allow-empty', '-m', 'start');
}

/** Everything a real Claude Code run needs except the terminal: dirs, seed, env, binary. */
export interface PreparedClaudeRun {
  /** The kh-test- temp dir holding home/ and repo/ (and a tmux socket, if any). */
  root: string;
  home: string;
  worktree: string;
  claudeJsonPath: string;
  env: Record<string, string>;
  /** argv for the pane: the pinned binary. */
  argv: string[];
  cleanup(): void;
}

export async function prepareClaudeRun(opts: RealClaudeOptions): Promise<PreparedClaudeRun> {
  const bin = requireClaudeBinary();
  const tmp = makeTempDir('claude-real');
  const home = join(tmp.path, 'home');
  const worktree = join(tmp.path, 'repo');
  try {
    mkdirSync(home);
    mkdirSync(worktree);
    gitInit(worktree);
    const seeded = seedClaudeHome({
      home, worktrees: [], apiKey: opts.apiKey, manualPermissions: opts.manualPermissions, renderer: opts.renderer,
    });
    // Trust goes through the product's own seeding code, so the real binary checks what dispatch writes.
    if (opts.trusted !== false) {
      const result = await seedTrust({ claudeJsonPath: seeded.claudeJsonPath, worktree });
      if (result !== 'seeded') throw new Error(`seedTrust(${worktree}) returned ${result}, expected 'seeded'`);
    }
    const env = claudeTestEnv({
      home, baseUrl: opts.baseUrl, renderer: opts.renderer, apiKey: opts.apiKey, promptSuggestions: opts.promptSuggestions, path: opts.path,
    });
    return { root: tmp.path, home, worktree, claudeJsonPath: seeded.claudeJsonPath, env, argv: [bin], cleanup: tmp.cleanup };
  } catch (err) {
    tmp.cleanup();
    throw err;
  }
}

/** A prepared run launched in a private tmux server of its own (test plumbing, not the product's host). */
export async function startRealClaude(opts: RealClaudeOptions): Promise<RealClaude> {
  const run = await prepareClaudeRun(opts);
  let pane: TmuxPane;
  try {
    pane = await launchInTmux({ dir: run.root, cwd: run.worktree, env: run.env, argv: run.argv, control: true });
  } catch (err) {
    run.cleanup();
    throw err;
  }
  return {
    pane, home: run.home, worktree: run.worktree, claudeJsonPath: run.claudeJsonPath,
    async dispose() {
      try {
        await pane.kill();
      } finally {
        run.cleanup();
      }
    },
  };
}
