/**
 * One product installation for the real-OpenCode end-to-end tests: a private `hand` state dir (its
 * own daemon, database and tmux server), a temp git repository already annexed, and a throwaway
 * agent HOME set up as a person's who configured OpenCode: a provider in ~/.config/opencode
 * pointed at the fake Anthropic API (the calibration kit's fakeProviderSetup). Nothing else: the
 * worker's config, permission rules and witness come from dispatch's launch environment, so
 * these tests exercise that. `hand dispatch` sends its environment to the daemon, so it is
 * exactly what the real OpenCode worker gets; HAND_OPENCODE_BIN picks the pinned binary.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FakeAnthropic, RequestRecord } from '../../../io/fake-model/anthropic.ts';
import { fakeProviderSetup } from '../../../io/agent/opencode/calibration-kit.ts';
import { opencodeBinaryFor, opencodeTestEnv } from '../../harness/real-opencode.ts';
import { writeBrief } from '../../cli/cli-harness.ts';
import type { RunResult } from '../../cli/cli-harness.ts';
import { inProcessHand } from '../../helpers/hand-in-process.ts';
import { makeTestRepo } from '../../helpers/git-repo.ts';
import { makeTempDir, waitForEvent } from '../../helpers/temp.ts';
import { explainWorker, handWait, stopWorkersAndRemove } from '../../claude-e2e/e2e-world.ts';

export interface OpencodeWorld {
  root: string;
  home: string;
  repo: string;
  agentHome: string;
  project: string;
  hand: ReturnType<typeof inProcessHand>['hand'];
  reportPathOf(id: string): string;
  worktreeOf(id: string): string;
  dispatch(id: string, task: string, extra?: string[]): Promise<RunResult>;
  /** `hand wait … --json`; a wait that did not end as asked carries the screen and status. */
  wait(id: string, until: 'settled' | 'blocked' | 'exited', timeout: string): Promise<RunResult>;
  /** The worker's row from `hand status --json`. */
  status(id: string): Promise<Record<string, any>>;
  explain(id: string): Promise<string>;
  /** The first request after `since` that `accept` takes, received or arriving; the worker's screen on timeout. */
  request(id: string, since: number, accept: (r: RequestRecord) => boolean, what: string, timeoutMs?: number): Promise<RequestRecord>;
  cleanup(): Promise<void>;
}

export async function makeOpencodeWorld(label: string, fake: FakeAnthropic, permissions: 'off' | 'edits' | 'ask'): Promise<OpencodeWorld> {
  const bin = opencodeBinaryFor();
  const tmp = makeTempDir(label);
  const root = tmp.path;
  const home = join(root, 'state');
  const repo = join(root, 'repo');
  const agentHome = join(root, 'agent-home');
  mkdirSync(agentHome);
  await makeTestRepo(repo, '# opencode e2e repo\n');
  const setup = fakeProviderSetup(agentHome, fake.url);
  const env = { ...opencodeTestEnv(agentHome), ...setup, HAND_OPENCODE_BIN: bin, PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin` };
  const installation = inProcessHand(home, env, 90_000);
  const hand = installation.hand;
  // Both gates stay (no --yolo): the brief is approved and the landing approved as a person does.
  const annex = await hand(['annex', repo, '--permissions', permissions, '--json']);
  if (annex.code !== 0) throw new Error(`hand annex failed (${annex.code}): ${annex.stdout}${annex.stderr}`);
  const world: OpencodeWorld = {
    root, home, repo, agentHome, hand,
    wait: (id, until, timeout) => handWait(hand, id, until, timeout),
    explain: (id) => explainWorker(hand, id),
    async status(id) {
      const s = await hand(['status', id, '--json']);
      if (s.code !== 0 || !Array.isArray(s.json)) throw new Error(`hand status ${id} failed (${s.code}): ${s.stdout}${s.stderr}`);
      return s.json[0];
    },
    project: String(annex.json.name ?? annex.json.project?.name),
    reportPathOf: (id) => join(home, 'workers', id, 'out', 'report.md'),
    worktreeOf: (id) => join(repo, '.claude', 'worktrees', id),
    async dispatch(id, task, extra = []) {
      const brief = writeBrief(root, id, task);
      const d = await hand(['dispatch', id, '--repo', repo, '--brief', brief, '--agent', 'opencode', '--backend', 'tmux', '--json', ...extra]);
      if (d.code !== 0) throw new Error(`hand dispatch ${id} failed (${d.code}): ${d.stdout}${d.stderr}`);
      return d;
    },
    async request(id, since, accept, what, timeoutMs = 60_000) {
      const take = (r: RequestRecord) => r.seq > since && accept(r);
      const seen = fake.received.find(take);
      if (seen) return seen;
      try {
        return await waitForEvent((l) => fake.onRequest(l), take, { what: `the fake Anthropic API to receive ${what}`, timeoutMs });
      } catch (err) {
        const got = fake.received.filter((r) => r.seq > since).map((r) => `${r.seq} ${r.kind ?? r.path} ${r.reply?.kind ?? ''}`);
        throw new Error(`${(err as Error).message}\n--- fake received since ${since}: ${got.join('; ') || 'nothing'}\n${await world.explain(id)}`);
      }
    },
    cleanup: () => stopWorkersAndRemove(hand, installation, tmp),
  };
  return world;
}
