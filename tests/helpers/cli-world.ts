/**
 * The setup the end-to-end CLI tests share, so each test file states only what it checks: one
 * CliWorld per test torn down after it, a `hand … --json` runner that must succeed, a project
 * annexed, workers parked on the mock agent's decision, and a webhook that records its posts.
 */
import { afterEach, expect } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCliWorld, type CliWorld, type CliWorldOptions } from '../cli/cli-harness.ts';
import { waitFor } from './temp.ts';
import { useWorldForAll } from './cleanups.ts';

/**
 * Registers the teardown of the world a test makes; call once at the top of a test file. The
 * returned function makes the test's world (one per test).
 */
export function useCliWorld(defaults: CliWorldOptions = {}): (label: string, opts?: CliWorldOptions) => Promise<CliWorld> {
  let world: CliWorld | null = null;
  afterEach(async () => {
    await world?.cleanup();
    world = null;
  });
  return async (label, opts = defaults) => (world = await makeCliWorld(label, opts));
}

/**
 * One CliWorld for the whole file (or describe block), its repository annexed with `annexArgs`,
 * made before the tests and removed after them; `ready` takes it and the time it was ready (an
 * audience `--since` that holds what the tests do).
 */
export function useAnnexedWorld(label: string, annexArgs: string[], ready: (w: CliWorld, since: number) => void): void {
  useWorldForAll(() => makeCliWorld(label), async (w) => {
    const annex = await w.hand(['annex', w.repo, ...annexArgs]);
    expect(annex.code, annex.stdout + annex.stderr).toBe(0);
    ready(w, Date.now());
  });
}

/** One worker's events in `hand audience --json`'s answer (none when it is not there). */
export const audienceEventsOf = (audience: any, id: string): { kind: string; words: string }[] => audience.workers.find((x: any) => x.id === id)?.events ?? [];

export type HandOk = (args: string[], timeoutMs?: number) => Promise<any>;

/** Runs `hand <args> --json`, expects exit 0 (the failure shows the output) and returns the JSON. */
export function handOk(w: CliWorld): HandOk {
  return async (args, timeoutMs) => {
    const r = await w.hand([...args, '--json'], timeoutMs ? { timeoutMs } : {});
    expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
    return r.json;
  };
}

/** Annexes the world's repo as project `shop` with --yolo (landing is not gated). */
export async function annexYoloShop(ok: HandOk, w: CliWorld): Promise<void> {
  await ok(['annex', w.repo, '--name', 'shop', '--yolo']);
}

/**
 * Annexes the world's repo with --yolo and dispatches `id` on the mock agent with a brief (named
 * `briefName`) of `task`; both must succeed. The dispatch's JSON.
 */
export async function dispatchYoloMock(w: CliWorld, id: string, task: string, briefName = id): Promise<{ worktree: string }> {
  expect((await w.hand(['annex', w.repo, '--yolo'])).code).toBe(0);
  const d = await w.hand(['dispatch', id, '--repo', w.repo, '--brief', w.brief(briefName, task), '--agent', 'mock', '--json']);
  expect(d.code, d.stderr).toBe(0);
  return d.json as { worktree: string };
}

/** A brief whose task makes the mock agent park on "Which database should the mock project use?". */
export function writeParkBrief(w: CliWorld, name = 'park'): string {
  const brief = join(w.root, `${name}.md`);
  writeFileSync(brief, '# Park\n\n## Read first\n\nNothing.\n\n## Task\n\nMODE:park\n');
  return brief;
}

/**
 * Annexes `shop` (yolo), dispatches each id with the park brief on the mock agent, and waits until
 * every one has its open decision. Returns the decisions and the key of each worker's.
 */
export async function parkWorkers(ok: HandOk, w: CliWorld, ids: string[]): Promise<{ open: any[]; key: (worker: string) => string }> {
  await annexYoloShop(ok, w);
  const brief = writeParkBrief(w);
  for (const id of ids) await ok(['dispatch', id, '--repo', w.repo, '--brief', brief, '--agent', 'mock']);
  const open = await waitFor(async () => {
    const r = await ok(['decisions']);
    return r.length === ids.length ? r : undefined;
  }, { what: `the open decisions of ${ids.join(', ')}`, timeoutMs: 45_000 });
  return { open, key: (worker) => open.find((d: any) => d.worker === worker).key as string };
}

/** A fresh world with `ids` parked on their decisions (see parkWorkers): the world, its `hand … --json` runner and each worker's decision key. */
export async function parkedWorld(makeWorld: (label: string) => Promise<CliWorld>, label: string, ids: string[]): Promise<{ w: CliWorld; ok: HandOk; key: (worker: string) => string }> {
  const w = await makeWorld(label);
  const ok = handOk(w);
  const { key } = await parkWorkers(ok, w, ids);
  return { w, ok, key };
}

/** A webhook receiver on 127.0.0.1 (`port` 0 picks one) that pushes each posted JSON body to `hits`. */
export function listenWebhook(hits: unknown[], port = 0): Promise<Server> {
  const s = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      hits.push(JSON.parse(body));
      res.end('ok');
    });
  });
  return new Promise((r) => s.listen(port, '127.0.0.1', () => r(s)));
}

export function serverPort(s: Server): number {
  return (s.address() as AddressInfo).port;
}

/** Closes a server and its open connections. */
export function closeServer(s: Server): Promise<void> {
  return new Promise<void>((r) => { s.closeAllConnections(); s.close(() => r()); });
}

/**
 * Annexes the world's repo with --yolo, dispatches `id` on the mock agent in tmux with a brief of
 * `task`, and waits until it settles. Returns dispatch's JSON (worktree, reportPath, briefPath…).
 */
export async function dispatchSettled(w: CliWorld, id: string, task: string): Promise<any> {
  expect((await w.hand(['annex', w.repo, '--yolo', '--json'])).code).toBe(0);
  const d = await w.hand(['dispatch', id, '--repo', w.repo, '--brief', w.brief(id, task), '--agent', 'mock', '--backend', 'tmux', '--json']);
  expect(d.code, d.stdout + d.stderr).toBe(0);
  const settled = await w.hand(['wait', id, '--until', 'settled', '--timeout', '30s', '--json']);
  expect(settled.code, settled.stdout + settled.stderr).toBe(0);
  return d.json;
}
