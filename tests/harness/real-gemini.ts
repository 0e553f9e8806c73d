/**
 * One real Gemini CLI run for a test or a capture: a throwaway HOME, a git worktree and a brief
 * directory (kh-test- temp dirs), seeded by the product's own code (trust, workspace settings),
 * the fake Gemini API's url, and the binary of the wanted version. The terminal is the caller's.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { seedGeminiTrust, trustedFoldersPathOf, writeGeminiSettings } from '../../io/agent/gemini/index.ts';
import { GEMINI_CLI, GEMINI_PINNED } from '../../io/agent/gemini/binary.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { agentCacheDir, cachedAgentBinary } from './cached-agent-version.ts';

export interface GeminiRunOptions {
  baseUrl: string;
  /** Seed trust of the worktree and the brief directory (default true). */
  trusted?: boolean;
  /** Give the worker GEMINI_API_KEY, so the seed selects api-key auth (default true). */
  apiKey?: boolean;
  version?: string;
}

export interface PreparedGeminiRun {
  root: string;
  home: string;
  worktree: string;
  briefDir: string;
  env: Record<string, string>;
  bin: string;
  cleanup(): void;
}

function gitInit(dir: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore', env: { PATH: '/usr/bin:/bin', HOME: dir } });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=kh', '-c', 'user.email=kh@example.invalid', 'commit', '-q', '--allow-empty', '-m', 'start');
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
    PATH: `${join(process.execPath, '..')}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    GOOGLE_GEMINI_BASE_URL: baseUrl,
    ...(apiKey ? { GEMINI_API_KEY: 'fake-gemini-key' } : {}),
  };
}

export async function prepareGeminiRun(opts: GeminiRunOptions): Promise<PreparedGeminiRun> {
  const bin = geminiBinaryFor(opts.version, { log: (l) => console.error(l) });
  const tmp = makeTempDir('gemini-real');
  const home = join(tmp.path, 'home');
  const worktree = join(tmp.path, 'repo');
  const briefDir = join(tmp.path, 'worker');
  try {
    for (const d of [home, worktree, briefDir]) mkdirSync(d);
    gitInit(worktree);
    const env = geminiTestEnv(home, opts.baseUrl, opts.apiKey !== false);
    // The product's own seed: what dispatch writes is what the real binary reads.
    await writeGeminiSettings({ worktree, briefDir, env });
    if (opts.trusted !== false) await seedGeminiTrust({ path: trustedFoldersPathOf(env)!, folders: [worktree, briefDir] });
    return { root: tmp.path, home, worktree, briefDir, env, bin, cleanup: tmp.cleanup };
  } catch (err) {
    tmp.cleanup();
    throw err;
  }
}
