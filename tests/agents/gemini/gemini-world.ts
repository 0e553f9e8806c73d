/**
 * One product installation for the real-Gemini end-to-end tests: a private `hand` state dir (its
 * own daemon, database and tmux server), a temp git repository already annexed, and a throwaway
 * agent HOME with nothing in it: trust and settings are left to the product's dispatch, so these
 * tests exercise that seed. `hand dispatch` sends its environment (geminiTestEnv) to the daemon,
 * so it is exactly what the real Gemini CLI worker gets.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FakeGemini, GeminiRequestRecord } from '../../../io/fake-model/gemini.ts';
import { geminiTestEnv } from '../../harness/real-gemini.ts';
import { writeBrief } from '../../cli/cli-harness.ts';
import type { RunResult } from '../../cli/cli-harness.ts';
import { inProcessHand } from '../../helpers/hand-in-process.ts';
import { makeTestRepo } from '../../helpers/git-repo.ts';
import { makeTempDir, waitForEvent } from '../../helpers/temp.ts';
import { explainWorker, handWait, stopWorkersAndRemove } from '../../claude-e2e/e2e-world.ts';

export interface GeminiWorld {
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
  request(id: string, since: number, accept: (r: GeminiRequestRecord) => boolean, what: string, timeoutMs?: number): Promise<GeminiRequestRecord>;
  cleanup(): Promise<void>;
}

export const watermark = (fake: FakeGemini): number => fake.received.at(-1)?.seq ?? 0;

/** `daemonProcess`: the daemon is the real `hand daemon run` process (a test that SIGKILLs it). */
export async function makeGeminiWorld(label: string, fake: FakeGemini, permissions: 'off' | 'edits' | 'ask', opts: { daemonProcess?: boolean } = {}): Promise<GeminiWorld> {
  const tmp = makeTempDir(label);
  const root = tmp.path;
  const home = join(root, 'state');
  const repo = join(root, 'repo');
  const agentHome = join(root, 'agent-home');
  mkdirSync(agentHome);
  await makeTestRepo(repo, '# gemini e2e repo\n');
  // Gemini CLI relaunches itself with a bigger heap by default: a second Node start per worker, not needed here.
  const env = { ...geminiTestEnv(agentHome, fake.url, true), GEMINI_CLI_NO_RELAUNCH: 'true', PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin` };
  const installation = inProcessHand(home, env, 90_000, { daemonProcess: opts.daemonProcess === true });
  const hand = installation.hand;
  // Both gates stay (no --yolo): the brief is approved and the landing approved as a person does.
  const annex = await hand(['annex', repo, '--permissions', permissions, '--json']);
  if (annex.code !== 0) throw new Error(`hand annex failed (${annex.code}): ${annex.stdout}${annex.stderr}`);
  const world: GeminiWorld = {
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
      const d = await hand(['dispatch', id, '--repo', repo, '--brief', brief, '--agent', 'gemini', '--backend', 'tmux', '--json', ...extra]);
      if (d.code !== 0) throw new Error(`hand dispatch ${id} failed (${d.code}): ${d.stdout}${d.stderr}`);
      return d;
    },
    async request(id, since, accept, what, timeoutMs = 45_000) {
      const take = (r: GeminiRequestRecord) => r.seq > since && accept(r);
      const seen = fake.received.find(take);
      if (seen) return seen;
      try {
        return await waitForEvent((l) => fake.onRequest(l), take, { what: `the fake Gemini API to receive ${what}`, timeoutMs });
      } catch (err) {
        const got = fake.received.filter((r) => r.seq > since).map((r) => `${r.seq} ${r.kind ?? r.path} ${r.reply?.kind ?? ''}`);
        throw new Error(`${(err as Error).message}\n--- fake received since ${since}: ${got.join('; ') || 'nothing'}\n${await world.explain(id)}`);
      }
    },
    cleanup: () => stopWorkersAndRemove(hand, installation, tmp),
  };
  return world;
}
