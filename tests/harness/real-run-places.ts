/**
 * The places one real agent run of a test or a capture needs (tests/harness/real-gemini.ts,
 * real-opencode.ts, real-qwen.ts), made alike in one kh-test- temp dir: a throwaway HOME, a git
 * repository for the worktree (one empty commit on main), the brief directory and its report
 * directory; and the environment the agent starts with there. Each agent's harness then sets
 * them up with the product's own code.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '../helpers/temp.ts';

export interface RealRunPlaces {
  root: string;
  home: string;
  worktree: string;
  briefDir: string;
  reportDir: string;
  /** The state directory the brief directory is laid out in (`underState`). */
  stateDir?: string;
  cleanup(): void;
}

function gitInit(dir: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore', env: { PATH: '/usr/bin:/bin', HOME: dir } });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=kh', '-c', 'user.email=kh@example.invalid', 'commit', '-q', '--allow-empty', '-m', 'start');
}

/**
 * Makes the places and gives them to `setUp`, which returns the prepared run; the places are
 * removed if it throws. `underState`: the brief directory laid out as dispatch does, inside a state
 * directory (`<root>/state/workers/w1`).
 */
export async function inRealRunPlaces<T>(label: string, setUp: (p: RealRunPlaces) => T | Promise<T>, o: { underState?: boolean } = {}): Promise<T> {
  const tmp = makeTempDir(label);
  const stateDir = o.underState ? join(tmp.path, 'state') : undefined;
  const briefDir = stateDir ? join(stateDir, 'workers', 'w1') : join(tmp.path, 'worker');
  const places: RealRunPlaces = {
    root: tmp.path, home: join(tmp.path, 'home'), worktree: join(tmp.path, 'repo'), briefDir, reportDir: join(briefDir, 'out'),
    ...(stateDir ? { stateDir } : {}), cleanup: tmp.cleanup,
  };
  try {
    for (const d of [places.home, places.worktree, places.reportDir]) mkdirSync(d, { recursive: true });
    gitInit(places.worktree);
    return await setUp(places);
  } catch (err) {
    tmp.cleanup();
    throw err;
  }
}

/** What a test's real agent starts with: this Node first on PATH, its HOME, a terminal, UTF-8. */
export function realAgentEnv(home: string): Record<string, string> {
  return {
    PATH: `${join(process.execPath, '..')}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
  };
}
