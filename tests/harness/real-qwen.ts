/**
 * One real Qwen Code run for a test or a capture: a throwaway HOME set up as a person's who chose
 * its Anthropic auth, pointed at the fake Anthropic API (the calibration kit's fakeQwenSetup), a
 * git worktree and a brief directory (kh-test- temp dirs), the worker's settings and trust file
 * written by the product's own seed for a posture, and the binary of the wanted version.
 *
 * Binaries: HAND_QWEN_BIN when it is the wanted version; the pinned one from node_modules; any
 * version from ~/.cache/kingshand/qwen/<version> (installed there with npm on first use).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PermissionPosture } from '../../contract/vocabulary.ts';
import { QWEN_PACKAGE, QWEN_PINNED, qwenBinary, qwenPackageVersion } from '../../io/agent/qwen/binary.ts';
import { fakeQwenSetup } from '../../io/agent/qwen/calibration-kit.ts';
import { qwenLaunchArgs } from '../../io/agent/qwen/posture.ts';
import { qwenLaunchVariables, writeQwenWorkerSettings } from '../../io/agent/qwen/worker-settings.ts';
import { qwenWitnessHooks } from '../../io/agent/qwen/hooks.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { cachedAgentBinary } from './cached-agent-version.ts';

/** The qwen executable for `version`, installing it into the cache when no other copy is that version. */
export function qwenBinaryFor(version: string = QWEN_PINNED, opts: { log?: (line: string) => void } = {}): string {
  const chosen = process.env.HAND_QWEN_BIN;
  if (chosen && qwenPackageVersion(chosen) === version) return chosen;
  if (version === QWEN_PINNED) {
    const pinned = qwenBinary({ PATH: '' });
    if (pinned !== null && qwenPackageVersion(pinned) === version) return pinned;
  }
  return cachedAgentBinary({ agent: 'qwen', pkg: QWEN_PACKAGE, bin: 'qwen', npmFlags: ['--ignore-scripts'], installTimeoutMs: 300_000 }, version, { log: opts.log });
}

export interface QwenRunOptions {
  baseUrl: string;
  posture?: PermissionPosture;
  version?: string;
  /** The witness hooks' `hand --home` (absent: no hooks). */
  witnessHome?: string;
  /** No auth chosen in the person's settings (the first-run dialog). */
  noAuth?: boolean;
}

export interface PreparedQwenRun {
  root: string;
  home: string;
  worktree: string;
  briefDir: string;
  reportDir: string;
  env: Record<string, string>;
  bin: string;
  /** The launch argv under the run's posture (program first). */
  argv: string[];
  cleanup(): void;
}

function gitInit(dir: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore', env: { PATH: '/usr/bin:/bin', HOME: dir } });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=kh', '-c', 'user.email=kh@example.invalid', 'commit', '-q', '--allow-empty', '-m', 'start');
}

export function qwenTestEnv(home: string): Record<string, string> {
  return {
    PATH: `${join(process.execPath, '..')}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
  };
}

export async function prepareQwenRun(opts: QwenRunOptions): Promise<PreparedQwenRun> {
  const bin = qwenBinaryFor(opts.version, { log: (l) => console.error(l) });
  const tmp = makeTempDir('qwen-real');
  const home = join(tmp.path, 'home');
  const worktree = join(tmp.path, 'repo');
  const briefDir = join(tmp.path, 'worker');
  const reportDir = join(briefDir, 'out');
  const posture = opts.posture ?? 'ask';
  try {
    for (const d of [home, worktree, reportDir]) mkdirSync(d, { recursive: true });
    gitInit(worktree);
    const base = qwenTestEnv(home);
    // The person's setup, then what the product writes and adds for a worker under the posture.
    const setup = opts.noAuth ? {} : fakeQwenSetup(home, opts.baseUrl);
    const env = { ...base, ...setup };
    writeQwenWorkerSettings({ posture, worktree, briefDir, reportDir, home, ...(opts.witnessHome ? { hooks: qwenWitnessHooks({ home: opts.witnessHome }) } : {}) }, env);
    return { root: tmp.path, home, worktree, briefDir, reportDir, env: { ...env, ...qwenLaunchVariables(briefDir, env) }, bin, argv: [bin, ...qwenLaunchArgs(posture)], cleanup: tmp.cleanup };
  } catch (err) {
    tmp.cleanup();
    throw err;
  }
}
