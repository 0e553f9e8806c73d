/**
 * One real Qwen Code run for a test or a capture: a throwaway HOME set up as a person's who chose
 * its Anthropic auth, pointed at the fake Anthropic API (the calibration kit's fakeQwenSetup), a
 * git worktree and a brief directory (kh-test- temp dirs), the worker's settings and trust file
 * written by the product's own seed for a posture, and the binary of the wanted version.
 *
 * Binaries: HAND_QWEN_BIN when it is the wanted version; the pinned one from node_modules; any
 * version from ~/.cache/kingshand/qwen/<version> (installed there with npm on first use).
 */
import type { PermissionPosture } from '../../contract/vocabulary.ts';
import { QWEN_CLI, QWEN_PINNED } from '../../io/agent/qwen/binary.ts';
import { fakeQwenSetup } from '../../io/agent/qwen/calibration-kit.ts';
import { qwenLaunchArgs } from '../../io/agent/qwen/posture.ts';
import { qwenLaunchVariables, writeQwenWorkerSettings } from '../../io/agent/qwen/worker-settings.ts';
import { qwenWitnessHooks } from '../../io/agent/qwen/hooks.ts';
import { inRealRunPlaces, realAgentEnv, type RealRunPlaces } from './real-run-places.ts';
import { cachedAgentBinary } from './cached-agent-version.ts';

/** The qwen executable for `version`, installing it into the cache when no other copy is that version. */
export function qwenBinaryFor(version: string = QWEN_PINNED, opts: { log?: (line: string) => void } = {}): string {
  const chosen = process.env.HAND_QWEN_BIN;
  if (chosen && QWEN_CLI.packageVersion(chosen) === version) return chosen;
  if (version === QWEN_PINNED) {
    const pinned = QWEN_CLI.binary({ PATH: '' });
    if (pinned !== null && QWEN_CLI.packageVersion(pinned) === version) return pinned;
  }
  return cachedAgentBinary({ agent: 'qwen', pkg: QWEN_CLI.packageName, bin: 'qwen', npmFlags: ['--ignore-scripts'], installTimeoutMs: 300_000 }, version, { log: opts.log });
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

/** Its places (real-run-places.ts), the environment it starts with and its binary. */
export interface PreparedQwenRun extends RealRunPlaces {
  env: Record<string, string>;
  bin: string;
  /** The launch argv under the run's posture (program first). */
  argv: string[];
}

/** What the test's Qwen Code starts with (its auth and the worker's variables come on top). */
export const qwenTestEnv = realAgentEnv;

export async function prepareQwenRun(opts: QwenRunOptions): Promise<PreparedQwenRun> {
  const bin = qwenBinaryFor(opts.version, { log: (l) => console.error(l) });
  const posture = opts.posture ?? 'ask';
  return inRealRunPlaces('qwen-real', (places) => {
    const { home, worktree, briefDir, reportDir } = places;
    // The person's setup, then what the product writes and adds for a worker under the posture.
    const setup = opts.noAuth ? {} : fakeQwenSetup(home, opts.baseUrl);
    const env = { ...qwenTestEnv(home), ...setup };
    writeQwenWorkerSettings({ posture, worktree, briefDir, reportDir, home, ...(opts.witnessHome ? { hooks: qwenWitnessHooks({ home: opts.witnessHome }) } : {}) }, env);
    return { ...places, env: { ...env, ...qwenLaunchVariables(briefDir, env) }, bin, argv: [bin, ...qwenLaunchArgs(posture)] };
  });
}
