/**
 * The world of the first-prompt fault tests (issue 25): twenty mock workers dispatched at once,
 * each with its own event log in which the mock notes every prompt it receives.
 */
import { expect } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliWorld } from '../cli/cli-harness.ts';
import { until } from '../helpers/temp.ts';
import { seenAt, type FaultWorld } from './fault-world.ts';

export const WORKERS = 20;
export const ids = Array.from({ length: WORKERS }, (_, i) => `p${i}`);

interface MockEvent { event: string; pid: number; promptSha256?: string }

export function events(w: CliWorld, id: string): MockEvent[] {
  const path = join(w.root, `events-${id}.log`);
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as MockEvent);
}
export const prompts = (w: CliWorld, id: string) => events(w, id).filter((e) => e.event === 'turn-started');
export const finished = (w: CliWorld, id: string) => events(w, id).some((e) => e.event === 'turn-finished');

/**
 * Every worker dispatched at once; even ids take 1 s turns (ending after the fault began), odd
 * ones 4 s (still at work when the daemon dies). `startMs`: the agent draws nothing for that long.
 */
export async function dispatchAll(w: CliWorld, startMs = 0): Promise<void> {
  const runs = await Promise.all(ids.map((id, i) => w.hand([
    'dispatch', id, '--repo', w.repo, '--brief', w.brief(id, 'Say hello.'), '--agent', 'mock', '--json',
    '--env', `KH_MOCK_EVENT_LOG=${join(w.root, `events-${id}.log`)}`,
    '--env', `KH_MOCK_REPLY_MS=${i % 2 === 0 ? 1000 : 4000}`,
    '--env', `KH_MOCK_START_MS=${startMs}`,
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
  for (const id of ids) expect(new Set(events(w, id).map((e) => e.pid)).size, `${id}: agent processes`).toBe(1);
}

