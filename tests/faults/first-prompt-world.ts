/**
 * The world of the first-prompt fault tests (issue 25): twenty mock workers dispatched at once,
 * each with its own event log in which the mock notes every prompt it receives.
 */
import { expect } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliWorld } from '../cli/cli-harness.ts';
import { makeTempDir, until, waitFor } from '../helpers/temp.ts';
import { pidsWithEnv } from '../helpers/processes.ts';
import { seenAt, type FaultWorld } from './fault-world.ts';

export const WORKERS = 20;
export const ids = Array.from({ length: WORKERS }, (_, i) => `p${i}`);

interface MockEvent { event: string; pid: number; instance: string; promptSha256?: string }

/**
 * The mocks' event logs live outside the world's temp dir: when the world's cleanup kills the
 * tmux server, twenty agents note their exit while it is being removed (seen once as ENOTEMPTY).
 * `removeEventLogs` waits for every agent that logged to be gone — found by the log path in its
 * environment: a sandboxed agent's pid is its sandbox's own — then removes them.
 */
const logDirs = new WeakMap<CliWorld, ReturnType<typeof makeTempDir>>();
function logDir(w: CliWorld): string {
  let dir = logDirs.get(w);
  if (!dir) logDirs.set(w, (dir = makeTempDir('prompt-once-events')));
  return dir.path;
}
const logPath = (w: CliWorld, id: string) => join(logDir(w), `events-${id}.log`);

export async function removeEventLogs(w: CliWorld): Promise<void> {
  const dir = logDirs.get(w);
  if (!dir) return;
  await waitFor(() => pidsWithEnv(`KH_MOCK_EVENT_LOG=${dir.path}/`).length === 0, { what: "the mock agents to exit after the world's cleanup", timeoutMs: 15_000 });
  dir.cleanup();
}

export function events(w: CliWorld, id: string): MockEvent[] {
  const path = logPath(w, id);
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as MockEvent);
}
/** A path beside the event logs (outside the world's small disk): the agents' start file. */
export const startFilePath = (w: CliWorld) => join(logDir(w), 'start');
export const prompts = (w: CliWorld, id: string) => events(w, id).filter((e) => e.event === 'turn-started');
export const finished = (w: CliWorld, id: string) => events(w, id).some((e) => e.event === 'turn-finished');

/**
 * Every worker dispatched at once; even ids take 1 s turns (ending after the fault began), odd
 * ones 4 s (still at work when the daemon dies). `startFile`: the agents draw nothing until it exists.
 */
export async function dispatchAll(w: CliWorld, startFile?: string): Promise<void> {
  const runs = await Promise.all(ids.map((id, i) => w.hand([
    'dispatch', id, '--repo', w.repo, '--brief', w.brief(id, 'Say hello.'), '--agent', 'mock', '--json',
    '--env', `KH_MOCK_EVENT_LOG=${logPath(w, id)}`,
    '--env', `KH_MOCK_REPLY_MS=${i % 2 === 0 ? 1000 : 4000}`,
    ...(startFile ? ['--env', `KH_MOCK_START_FILE=${startFile}`] : []),
  ])));
  runs.forEach((r, i) => expect(r.code, `dispatch ${ids[i]}: ${r.stdout}${r.stderr}`).toBe(0));
}

export async function everyPromptReceived(w: CliWorld): Promise<void> {
  await until('every worker to receive its first prompt', () => ids.filter((id) => prompts(w, id).length === 0), (missing) => missing.length === 0, 60_000, 100);
}

/** The daemon comes back (the CLI starts it), every worker settles, and each received its brief once. */
export async function assertEachPromptedOnce(w: CliWorld): Promise<void> {
  const status = await w.hand(['status', '--json']);
  expect(status.code, status.stdout + status.stderr).toBe(0);
  await seenAt(w as FaultWorld, new Map(ids.map((id) => [id, (s: string) => s.startsWith('settled')])), 'every restored worker to settle', 60_000);
  const counts = Object.fromEntries(ids.map((id) => [id, prompts(w, id).length]));
  expect(counts, 'prompts each mock received (a restore that typed the brief again makes a 2)').toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
  // One agent per worker all along: the restore re-attached, it never started another.
  for (const id of ids) expect(new Set(events(w, id).map((e) => e.instance)).size, `${id}: agent processes`).toBe(1);
}

