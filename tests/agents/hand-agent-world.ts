/**
 * One product installation for a real agent CLI's end-to-end tests, whatever the agent: a private
 * `hand` state dir (its own daemon, database and tmux server), a temp git repository already
 * annexed (both gates stay: no --yolo, the brief and the landing are approved as a person does),
 * and a throwaway agent HOME the caller fills. The Gemini CLI and OpenCode worlds are this with
 * their own environment and fake API.
 */
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { writeBrief } from '../cli/cli-harness.ts';
import type { RunResult } from '../cli/cli-harness.ts';
import { inProcessHand } from '../helpers/hand-in-process.ts';
import { makeTestRepo } from '../helpers/git-repo.ts';
import { waitForEvent } from '../helpers/temp.ts';
import { agentWorldPlaces, explainWorker, handWait, stopWorkersAndRemove } from '../claude-e2e/e2e-world.ts';

/** What the worlds read of a fake model API's request log. */
export interface RequestLike { seq: number; kind?: string; path: string; reply?: { kind: string } }

export interface HandAgentWorld<R extends RequestLike> {
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
  request(id: string, since: number, accept: (r: R) => boolean, what: string, timeoutMs?: number): Promise<R>;
  /** `hand land`, the person's `hand approve` onto main (whose log then holds `subject`), `hand stop` with status 0. */
  landAndStop(id: string, subject: string): Promise<void>;
  cleanup(): Promise<void>;
}

export interface HandAgentWorldOptions<R extends RequestLike> {
  label: string;
  agent: string;
  permissions: 'off' | 'edits' | 'ask';
  fake: { received: R[]; onRequest(listener: (r: R) => void): () => void };
  /** How the fake is named in a timeout's message ("the fake Gemini API"). */
  fakeName: string;
  /** The agent's own environment for its HOME (placed, empty); PATH is the test's. */
  env(agentHome: string): Record<string, string>;
  requestTimeoutMs: number;
  /** The daemon is the real `hand daemon run` process (a test that SIGKILLs it). */
  daemonProcess?: boolean;
}

export async function makeHandAgentWorld<R extends RequestLike>(o: HandAgentWorldOptions<R>): Promise<HandAgentWorld<R>> {
  const { tmp, root, home, repo, agentHome } = agentWorldPlaces(o.label);
  await makeTestRepo(repo, `# ${o.agent} e2e repo\n`);
  const env = { ...o.env(agentHome), PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin` };
  const installation = inProcessHand(home, env, 90_000, { daemonProcess: o.daemonProcess === true });
  const hand = installation.hand;
  const annex = await hand(['annex', repo, '--permissions', o.permissions, '--json']);
  if (annex.code !== 0) throw new Error(`hand annex failed (${annex.code}): ${annex.stdout}${annex.stderr}`);
  const world: HandAgentWorld<R> = {
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
      const d = await hand(['dispatch', id, '--repo', repo, '--brief', brief, '--agent', o.agent, '--backend', 'tmux', '--json', ...extra]);
      if (d.code !== 0) throw new Error(`hand dispatch ${id} failed (${d.code}): ${d.stdout}${d.stderr}`);
      return d;
    },
    async request(id, since, accept, what, timeoutMs = o.requestTimeoutMs) {
      const take = (r: R) => r.seq > since && accept(r);
      const seen = o.fake.received.find(take);
      if (seen) return seen;
      try {
        return await waitForEvent((l) => o.fake.onRequest(l), take, { what: `${o.fakeName} to receive ${what}`, timeoutMs });
      } catch (err) {
        const got = o.fake.received.filter((r) => r.seq > since).map((r) => `${r.seq} ${r.kind ?? r.path} ${r.reply?.kind ?? ''}`);
        throw new Error(`${(err as Error).message}\n--- fake received since ${since}: ${got.join('; ') || 'nothing'}\n${await world.explain(id)}`);
      }
    },
    async landAndStop(id, subject) {
      const land = await hand(['land', id, '--json']);
      expect(land.code, land.stdout + land.stderr).toBe(0);
      const approve = await hand(['approve', id, '--json'], { timeoutMs: 90_000 });
      expect(approve.code, approve.stdout + approve.stderr).toBe(0);
      expect(approve.json).toMatchObject({ stage: 'landed', landed: { target: 'main' } });
      expect(execFileSync('git', ['-C', repo, 'log', '--format=%s', 'main'], { encoding: 'utf8' })).toContain(subject);
      const stop = await hand(['stop', id, '--json'], { timeoutMs: 60_000 });
      expect(stop.code, stop.stdout + stop.stderr).toBe(0);
      expect(stop.json.exitCode).toBe(0);
    },
    cleanup: () => stopWorkersAndRemove(hand, installation, tmp),
  };
  return world;
}
