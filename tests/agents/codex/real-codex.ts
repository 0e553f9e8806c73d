/**
 * One real Codex CLI in tmux against the fake Responses API, in a throwaway HOME and a git
 * worktree trusted by the product's own seeding (seedCodexTrust). Test plumbing shared by the
 * tests under tests/agents/codex/.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import type { PermissionPosture } from '../../../contract/vocabulary.ts';
import { codexBinary, codexLaunchArgs } from '../../../io/agent/codex/launch.ts';
import { seedCodexTrust } from '../../../io/agent/codex/trust-seed.ts';
import { startFakeCodexApi, type FakeCodexApi } from '../../../io/fake-model/codex.ts';
import { codexTestEnv, seedCodexHome, type CodexTestHome } from '../../harness/codex-env.ts';
import { launchInTmux, type TmuxPane } from '../../harness/claude-tmux.ts';
import { makeTempDir } from '../../helpers/temp.ts';

export interface RealCodex {
  pane: TmuxPane;
  fake: FakeCodexApi;
  home: CodexTestHome;
  worktree: string;
  close(): Promise<void>;
}

export function pinnedCodex(): string {
  const bin = codexBinary({ PATH: '' });
  if (bin === null) throw new Error('node_modules/.bin/codex is missing: run npm ci (@openai/codex is a pinned devDependency)');
  return bin;
}

/**
 * A worktree with a `.codex/` folder of its own: Codex shows its "Trust this folder?" screen for
 * such a folder unless it is trusted, so a start on the idle box proves the seeding worked.
 */
function makeWorktree(root: string): string {
  const worktree = join(root, 'work');
  mkdirSync(join(worktree, '.codex'), { recursive: true });
  writeFileSync(join(worktree, '.codex', 'config.toml'), 'model_reasoning_effort = "low"\n');
  execFileSync('git', ['init', '-q', worktree]);
  return worktree;
}

export async function startRealCodex(opts: { posture: PermissionPosture; cols?: number; rows?: number; notify?: string[]; trust?: boolean }): Promise<RealCodex> {
  const dir = makeTempDir('codex');
  const fake = await startFakeCodexApi();
  let pane: TmuxPane | undefined;
  try {
    const home = seedCodexHome(join(dir.path, 'home'), fake.url);
    const worktree = makeWorktree(dir.path);
    if (opts.trust !== false) seedCodexTrust({ configPath: home.configPath, worktree });
    pane = await launchInTmux({
      dir: dir.path,
      cwd: worktree,
      env: codexTestEnv(home),
      argv: [pinnedCodex(), ...codexLaunchArgs({ posture: opts.posture, ...(opts.notify ? { notify: opts.notify } : {}) })],
      cols: opts.cols ?? 100,
      rows: opts.rows ?? 30,
      control: true,
    });
  } catch (err) {
    await fake.close();
    dir.cleanup();
    throw err;
  }
  const started = pane;
  return {
    pane: started,
    fake,
    home: seedlessHome(dir.path),
    worktree: join(dir.path, 'work'),
    async close() {
      await started.kill();
      await fake.close();
      rmSync(dir.path, { recursive: true, force: true });
    },
  };
}

function seedlessHome(root: string): CodexTestHome {
  const home = join(root, 'home');
  return { home, codexHome: join(home, '.codex'), configPath: join(home, '.codex', 'config.toml'), tmpDir: join(home, '.tmp') };
}

/** Types a prompt and submits it (Codex drops keys typed before its box is drawn: wait first). */
export async function submitPrompt(pane: TmuxPane, text: string): Promise<void> {
  await pane.type(text);
  await pane.waitForScreen((s) => s.includes(text), `the prompt ${JSON.stringify(text)} in the box`);
  await pane.keys('Enter');
}
