/**
 * A throwaway world for one benchmark: a temp dir holding a git repository, a worker HOME whose
 * `.claude.json` has onboarding done (so the mock agent's trust check passes once our trust seed
 * adds the worktree), and the environment workers are dispatched with. The repository, the HOME,
 * briefs and the environment come from tests/helpers/hand-world.ts, the same builder the CLI
 * tests use, so a bench world and a test world cannot drift apart.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedWorld, worldEnv, writeBrief } from '../../tests/helpers/hand-world.ts';
import { onCleanup } from './cleanup.ts';

export interface BenchWorld {
  root: string;
  repo: string;
  agentHome: string;
  /** Environment of a worker: the bench's own plus HOME and the mock agent's knobs. */
  workerEnv(extra?: Record<string, string>): Record<string, string>;
  brief(name: string): string;
  eventLog(name: string): string;
}

export function makeWorld(label: string): BenchWorld {
  // kh-bench-, not the tests' kh-test- prefix: the test suite's leak check must not count a bench run
  const root = realpathSync(mkdtempSync(join(tmpdir(), `kh-bench-${label}-`)));
  onCleanup(`temp dir ${root}`, () => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'events'));
  const { repo, agentHome } = seedWorld(root, '# bench repo\n');
  return {
    root,
    repo,
    agentHome,
    workerEnv: (extra = {}) => worldEnv(agentHome, { KH_MOCK_TICK_MS: '100', KH_MOCK_REPLY_MS: '300', ...extra }),
    brief: (name) => writeBrief(root, name, 'Benchmark worker: reply and wait.'),
    eventLog: (name) => join(root, 'events', `${name}.jsonl`),
  };
}
