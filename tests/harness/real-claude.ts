/**
 * One real Claude Code session for a test: a throwaway HOME and git worktree (kh-test- temp
 * dirs), the seed, the fake model server's url, and the binary in a private tmux server.
 * dispose() kills the tmux server, waits for the program to leave and removes the dirs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { claudeTestEnv, seedClaudeHome, type ClaudeRenderer } from '../../io/agent/claude-env.ts';
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

export async function startRealClaude(opts: RealClaudeOptions): Promise<RealClaude> {
  const bin = requireClaudeBinary();
  const tmp = makeTempDir('claude-real');
  const home = join(tmp.path, 'home');
  const worktree = join(tmp.path, 'repo');
  mkdirSync(home);
  mkdirSync(worktree);
  let pane: TmuxPane | undefined;
  try {
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
      home, baseUrl: opts.baseUrl, renderer: opts.renderer, apiKey: opts.apiKey, promptSuggestions: opts.promptSuggestions,
    });
    pane = await launchInTmux({ dir: tmp.path, cwd: worktree, env, argv: [bin] });
    const started = pane;
    return {
      pane: started, home, worktree, claudeJsonPath: seeded.claudeJsonPath,
      async dispose() {
        try {
          await started.kill();
        } finally {
          tmp.cleanup();
        }
      },
    };
  } catch (err) {
    await pane?.kill();
    tmp.cleanup();
    throw err;
  }
}
