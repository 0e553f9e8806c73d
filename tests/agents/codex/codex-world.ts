/**
 * One kingshand installation for the real-Codex end-to-end tests: a private `hand` state dir
 * (its own daemon, database, tmux server), annexed temp repositories, and a throwaway agent HOME
 * whose ~/.codex/config.toml names the fake Responses API as its provider and nothing else.
 * Folder trust is left to the product's dispatch (the Codex profile's seed), so it is exercised.
 */
import { dirname, join } from 'node:path';
import { appendFileSync, mkdirSync } from 'node:fs';
import { writeBrief, type RunResult } from '../../cli/cli-harness.ts';
import { inProcessHand } from '../../helpers/hand-in-process.ts';
import { makeTestRepo } from '../../helpers/git-repo.ts';
import { makeTempDir } from '../../helpers/temp.ts';
import { explainWorker, handWait, stopWorkersAndRemove } from '../../claude-e2e/e2e-world.ts';
import { afterAll, beforeAll } from 'vitest';
import { startFakeCodexApi, type FakeCodexApi } from '../../../io/fake-model/codex.ts';
import { FAKE_OPENAI_KEY, FAKE_OPENAI_KEY_ENV, codexTestEnv, seedCodexHome, type CodexTestHome } from '../../harness/codex-env.ts';

export interface CodexWorld {
  root: string;
  home: string;
  codex: CodexTestHome;
  hand: ReturnType<typeof inProcessHand>['hand'];
  /** A fresh repository annexed with --yolo under `permissions`. */
  annex(name: string, permissions: 'off' | 'edits' | 'ask'): Promise<string>;
  dispatch(id: string, repo: string, task: string): Promise<RunResult>;
  wait(id: string, until: 'settled' | 'blocked' | 'exited', timeout: string): Promise<RunResult>;
  explain(id: string): Promise<string>;
  reportPathOf(id: string): string;
  worktreeOf(repo: string, id: string): string;
  cleanup(): Promise<void>;
}

/** `daemonProcess`: the daemon is the real `hand daemon run` process (a test that SIGKILLs it). */
export async function makeCodexWorld(label: string, fake: FakeCodexApi, opts: { daemonProcess?: boolean } = {}): Promise<CodexWorld> {
  const tmp = makeTempDir(label);
  const root = tmp.path;
  const home = join(root, 'state');
  const codex = seedCodexHome(join(root, 'agent-home'), fake.url);
  // Everything here lives under /tmp, which workspace-write lets a command write anyway: without
  // these a worker could write its brief directory whether or not it was made a writable root.
  appendFileSync(codex.configPath, '\n[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n');
  // The daemon is started by the CLI with this environment too: node must be on PATH for it.
  const env = codexTestEnv(codex, { path: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin` });
  const installation = inProcessHand(home, env, 90_000, { daemonProcess: opts.daemonProcess === true });
  const hand = installation.hand;
  const world: CodexWorld = {
    root, home, codex, hand,
    async annex(name, permissions) {
      const repo = join(root, name);
      mkdirSync(repo);
      await makeTestRepo(repo, `# ${name}\n`);
      const a = await hand(['annex', repo, '--yolo', '--permissions', permissions, '--json']);
      if (a.code !== 0) throw new Error(`hand annex failed (${a.code}): ${a.stdout}${a.stderr}`);
      return repo;
    },
    async dispatch(id, repo, task) {
      const brief = writeBrief(root, id, task);
      // The provider's key is not on the worker allow-list (OPENAI_* and the like are left out
      // on purpose): a person passes it with --env, as here.
      const d = await hand(['dispatch', id, '--repo', repo, '--brief', brief, '--agent', 'codex', '--backend', 'tmux', '--env', `${FAKE_OPENAI_KEY_ENV}=${FAKE_OPENAI_KEY}`, '--json']);
      if (d.code !== 0) throw new Error(`hand dispatch ${id} failed (${d.code}): ${d.stdout}${d.stderr}`);
      return d;
    },
    wait: (id, until, timeout) => handWait(hand, id, until, timeout),
    explain: (id) => explainWorker(hand, id),
    reportPathOf: (id) => join(home, 'workers', id, 'out', 'report.md'),
    worktreeOf: (repo, id) => join(repo, '.claude', 'worktrees', id),
    cleanup: () => stopWorkersAndRemove(hand, installation, tmp),
  };
  return world;
}

/**
 * The fake Responses API and a world on it for one test file: made before its tests, closed after
 * them, the world first (its workers talk to the API until they stop). Read `fake` and `w` inside
 * tests; `alsoCleanup` runs before both (what a test planted around the world).
 */
export function useCodexWorld(
  label: string,
  opts: { api?: Parameters<typeof startFakeCodexApi>[0]; daemonProcess?: boolean; alsoCleanup?: () => void } = {},
): { readonly fake: FakeCodexApi; readonly w: CodexWorld } {
  let fake: FakeCodexApi | undefined;
  let w: CodexWorld | undefined;
  beforeAll(async () => {
    fake = await startFakeCodexApi(opts.api);
    w = await makeCodexWorld(label, fake, { daemonProcess: opts.daemonProcess === true });
  });
  afterAll(async () => {
    opts.alsoCleanup?.();
    await w?.cleanup();
    await fake?.close();
  });
  const made = <T>(what: string, v: T | undefined): T => {
    if (v === undefined) throw new Error(`the codex world ${label} has no ${what}: read it inside a test, after beforeAll`);
    return v;
  };
  return {
    get fake() { return made('fake API', fake); },
    get w() { return made('world', w); },
  };
}
