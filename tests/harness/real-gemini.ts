/**
 * One real Gemini CLI run for a test or a capture: a throwaway HOME, a git worktree and a brief
 * directory (kh-test- temp dirs), seeded by the product's own code (trust, workspace settings),
 * the fake Gemini API's url, and the binary of the wanted version. The terminal is the caller's.
 */
import { seedGeminiTrust, trustedFoldersPathOf, writeGeminiSettings } from '../../io/agent/gemini/index.ts';
import { GEMINI_CLI, GEMINI_PINNED } from '../../io/agent/gemini/binary.ts';
import { inRealRunPlaces, realAgentEnv, type RealRunPlaces } from './real-run-places.ts';
import { agentCacheDir, cachedAgentBinary } from './cached-agent-version.ts';

export interface GeminiRunOptions {
  baseUrl: string;
  /** Seed trust of the worktree and the brief directory (default true). */
  trusted?: boolean;
  /** Give the worker GEMINI_API_KEY, so the seed selects api-key auth (default true). */
  apiKey?: boolean;
  version?: string;
}

/** Its places (real-run-places.ts), the environment it starts with and its binary. */
export interface PreparedGeminiRun extends RealRunPlaces {
  env: Record<string, string>;
  bin: string;
}

export function geminiCacheDir(version: string): string {
  return agentCacheDir('gemini', version);
}

/**
 * The gemini executable for `version`: the pinned one from node_modules, others installed into
 * ~/.cache/kingshand/gemini/<version> on first use (npm; install scripts off: its optional
 * keytar build is not needed, node-pty comes prebuilt).
 */
export function geminiBinaryFor(version: string = GEMINI_PINNED, opts: { log?: (line: string) => void } = {}): string {
  if (version === GEMINI_PINNED) {
    const bin = GEMINI_CLI.binary({ PATH: '' });
    if (bin === null) throw new Error('node_modules/.bin/gemini is missing: run npm install');
    return bin;
  }
  return cachedAgentBinary({ agent: 'gemini', pkg: '@google/gemini-cli', bin: 'gemini', npmFlags: ['--ignore-scripts'], installTimeoutMs: 300_000 }, version, { log: opts.log });
}

export function geminiTestEnv(home: string, baseUrl: string, apiKey: boolean): Record<string, string> {
  return {
    ...realAgentEnv(home),
    GOOGLE_GEMINI_BASE_URL: baseUrl,
    ...(apiKey ? { GEMINI_API_KEY: 'fake-gemini-key' } : {}),
  };
}

export async function prepareGeminiRun(opts: GeminiRunOptions): Promise<PreparedGeminiRun> {
  const bin = geminiBinaryFor(opts.version, { log: (l) => console.error(l) });
  return inRealRunPlaces('gemini-real', async (places) => {
    const { home, worktree, briefDir } = places;
    const env = geminiTestEnv(home, opts.baseUrl, opts.apiKey !== false);
    // The product's own seed: what dispatch writes is what the real binary reads.
    await writeGeminiSettings({ worktree, briefDir, env });
    if (opts.trusted !== false) await seedGeminiTrust({ path: trustedFoldersPathOf(env)!, folders: [worktree, briefDir] });
    return { ...places, env, bin };
  });
}
