/**
 * One real OpenCode run for a test or a capture: a throwaway HOME set up as a person's pointed at
 * the fake Anthropic API (the calibration kit's fakeProviderSetup), a git worktree and a brief
 * directory (kh-test- temp dirs), the launch variables the product gives a worker under a
 * posture (io/agent/opencode/launch-env.ts), and the binary of the wanted version. The terminal
 * is the caller's.
 *
 * Binaries: HAND_OPENCODE_BIN when it is the wanted version; the pinned one from node_modules;
 * any version from ~/.cache/kingshand/opencode/<version> (installed there with npm on first use:
 * the launcher and its platform package, whose binary is used as it is).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { PermissionPosture } from '../../contract/vocabulary.ts';
import { OPENCODE_PINNED, opencodeBinary, opencodePackageVersion } from '../../io/agent/opencode/binary.ts';
import { opencodeLaunchEnv } from '../../io/agent/opencode/launch-env.ts';
import { fakeProviderSetup } from '../../io/agent/opencode/calibration-kit.ts';
import { inRealRunPlaces, realAgentEnv, type RealRunPlaces } from './real-run-places.ts';
import { registryEnv } from './cached-agent-version.ts';

export function opencodeCacheDir(version: string): string {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kingshand', 'opencode', version);
}

/** The opencode executable for `version`, installing it into the cache when no other copy is that version. */
export function opencodeBinaryFor(version: string = OPENCODE_PINNED, opts: { log?: (line: string) => void } = {}): string {
  const chosen = process.env.HAND_OPENCODE_BIN;
  if (chosen && existsSync(chosen) && opencodePackageVersion(chosen) === version) return chosen;
  if (version === OPENCODE_PINNED) {
    const pinned = opencodeBinary({ PATH: '' });
    if (pinned !== null && opencodePackageVersion(pinned) === version) return pinned;
  }
  const dir = opencodeCacheDir(version);
  let bin = opencodeBinary({ PATH: '' }, dir);
  if (bin === null) {
    mkdirSync(dir, { recursive: true });
    opts.log?.(`installing opencode-ai@${version} into ${dir}`);
    execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', `opencode-ai@${version}`], { stdio: opts.log ? 'inherit' : 'pipe', env: registryEnv(), timeout: 600_000 });
    bin = opencodeBinary({ PATH: '' }, dir);
  }
  const installed = bin === null ? null : opencodePackageVersion(bin);
  if (bin === null || installed !== version) throw new Error(`${dir} holds no opencode ${version} (found ${String(installed)})`);
  return bin;
}

export interface OpencodeRunOptions {
  baseUrl: string;
  posture?: PermissionPosture;
  version?: string;
  /** The witness plugin's `hand --home` (absent: no plugin). */
  witnessHome?: string;
  /** Lay the brief directory out as dispatch does, inside a state directory (`<root>/state/workers/w1`), which the rules then name. */
  underState?: boolean;
}

/** Its places (real-run-places.ts), the environment it starts with and its binary. */
export interface PreparedOpencodeRun extends RealRunPlaces {
  env: Record<string, string>;
  bin: string;
}

/** What the test's OpenCode starts with (its provider and launch variables come on top). */
export const opencodeTestEnv = realAgentEnv;

export async function prepareOpencodeRun(opts: OpencodeRunOptions): Promise<PreparedOpencodeRun> {
  const bin = opencodeBinaryFor(opts.version, { log: (l) => console.error(l) });
  return inRealRunPlaces('opencode-real', (places) => {
    const { home, worktree, briefDir, reportDir, stateDir } = places;
    // The person's setup, then what the product adds for a worker under the posture.
    const setup = fakeProviderSetup(home, opts.baseUrl);
    const launch = opencodeLaunchEnv({ posture: opts.posture ?? 'ask', worktree, briefDir, reportDir, home, ...(stateDir ? { stateDir } : {}), ...(opts.witnessHome ? { witnessHome: opts.witnessHome } : {}) });
    return { ...places, env: { ...opencodeTestEnv(home), ...setup, ...launch }, bin };
  }, { underState: opts.underState === true });
}
