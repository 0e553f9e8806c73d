/**
 * The fault suite's world: one state directory with a yolo and a gated project, the catalogue's
 * workers dispatched into their states (reached by the daemon's pushed views, never by sleeping),
 * the faults themselves, and the invariants checked after each (docs/fault-suite.md).
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { socketRefuses } from '../helpers/processes.ts';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { makeTestRepo } from '../helpers/git-repo.ts';
import { waitFor } from '../helpers/temp.ts';
import { call } from '../../cli/client.ts';
import { homePaths } from '../../contract/home.ts';
import { FAULT_HOLD_ENV } from '../../daemon/fault-holds.ts';
import type { Recipe } from './worker-states.ts';

export interface FaultWorld extends CliWorld {
  gatedRepo: string;
  tmuxSocket: string;
}

/** The world, its daemon started with the fault holds of `planned` in its environment. */
export async function makeFaultWorld(label: string, planned: Array<{ id: string; recipe: Recipe }>, opts: { beforeHome?: (home: string) => void } = {}): Promise<FaultWorld> {
  const w = await makeCliWorld(label, { daemonProcess: true, ...opts });
  const gatedRepo = join(w.root, 'gated-repo');
  makeTestRepo(gatedRepo, '# gated\n');
  const holds = planned.filter((p) => p.recipe.hold).map((p) => `${p.id}=${p.recipe.hold}`).join(',');
  // The first command starts the daemon: with the holds in its environment.
  expect((await w.hand(['annex', w.repo, '--yolo'], { env: { [FAULT_HOLD_ENV]: holds } })).code).toBe(0);
  expect((await w.hand(['annex', gatedRepo, '--name', 'gated'])).code).toBe(0);
  return { ...w, gatedRepo, tmuxSocket: homePaths(w.home).tmuxSocket };
}

/** A row of the daemon's `watch` stream (a status row): the fields the suite reads. */
export interface WatchRow { id: string; stage: string; live?: boolean | null }

/**
 * Resolves once every id has been seen at a stage its predicate accepts, from the daemon's
 * `watch` stream (pushed views); rejects after `timeoutMs` naming the ids still missing.
 */
export async function seenAt(w: FaultWorld, targets: Map<string, (stage: string, row: WatchRow) => boolean>, what: string, timeoutMs = 45_000): Promise<void> {
  const waiting = new Set(targets.keys());
  const last = new Map<string, string>();
  const ac = new AbortController();
  let done!: () => void;
  const reached = new Promise<void>((r) => (done = r));
  const consider = (row: WatchRow) => {
    if (!row?.id || typeof row.stage !== 'string') return;
    last.set(row.id, row.stage);
    if (waiting.has(row.id) && targets.get(row.id)!(row.stage, row)) waiting.delete(row.id);
    if (waiting.size === 0) done();
  };
  const watching = call(homePaths(w.home), 'watch', { timeoutMs }, { onProgress: (p) => consider(p as WatchRow), signal: ac.signal })
    .then((rows) => (Array.isArray(rows) ? rows.forEach(consider) : undefined))
    .catch(() => {});
  const timer = setTimeout(done, timeoutMs);
  await reached;
  clearTimeout(timer);
  ac.abort();
  await watching;
  if (waiting.size) {
    throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}: ${[...waiting].map((id) => `${id} (last ${last.get(id) ?? 'never seen'})`).join(', ')}`);
  }
}

/** `hand dispatch` answers once the worker has a pane: held before that, its call ends only with the fault. */
const PRE_PANE_HOLDS = new Set(['preparing', 'seeding', 'spawning']);

/**
 * Dispatches every planned worker (holds in the daemon's environment), in parallel, and waits
 * until each is in its state. Returns the dispatch calls still open (held before their pane):
 * they end when the fault takes their daemon away.
 */
export async function dispatchIntoStates(w: FaultWorld, planned: Array<{ id: string; recipe: Recipe }>): Promise<{ held: Promise<unknown> }> {
  const dispatch = (p: { id: string; recipe: Recipe }) => w.hand([
    'dispatch', p.id, '--repo', p.recipe.project === 'gated' ? w.gatedRepo : w.repo, '--brief', w.brief(p.id, p.recipe.task),
    '--agent', 'mock', '--stall', p.recipe.stall ?? '20m', '--json',
  ], { timeoutMs: 240_000 });
  const open = planned.filter((p) => PRE_PANE_HOLDS.has(p.recipe.hold ?? ''));
  const answered = planned.filter((p) => !open.includes(p));
  const pending = Promise.all(open.map(dispatch));
  const results = await Promise.all(answered.map(dispatch));
  results.forEach((r, i) => expect(r.code, `dispatch ${answered[i]!.id}: ${r.stdout}${r.stderr}`).toBe(0));
  const stops = planned.filter((p) => p.recipe.thenStop);
  const heldStops: Promise<unknown>[] = [];
  if (stops.length) {
    await seenAt(w, new Map(stops.map((p) => [p.id, p.recipe.thenStop!.after ?? ((s: string) => s.startsWith('settled'))])), 'the workers to be stopped to reach the stage their stop starts from');
    const stop = (p: { id: string; recipe: Recipe }) => w.hand(['stop', p.id, ...(p.recipe.thenStop!.timeout ? ['--timeout', p.recipe.thenStop!.timeout] : [])], { timeoutMs: 240_000 });
    // A stop held at one of its steps answers only when the fault takes its daemon away.
    heldStops.push(...stops.filter((p) => p.recipe.thenStop!.held).map(stop));
    await Promise.all(stops.filter((p) => !p.recipe.thenStop!.held).map(async (p) => {
      const r = await stop(p);
      // A stop that timed out answers 0 too: its worker is stuck, which is the state asked for.
      expect(r.code, `hand stop ${p.id}: ${r.stdout}${r.stderr}`).toBe(0);
    }));
  }
  await seenAt(w, new Map(planned.map((p) => [p.id, p.recipe.reach])), 'every planned worker to reach its state', 120_000);
  // Wrapped: an async function returning a promise would wait for it (and these end only with the fault).
  return { held: Promise.all([pending, ...heldStops]) };
}

export interface PaneRow { paneId: string; name: string; alive: boolean }

/** The worker panes of the private tmux server (the monitor's placeholder left out); [] when no server runs. */
export function workerPanes(w: FaultWorld): Promise<PaneRow[]> {
  return new Promise((resolve) => {
    execFile('tmux', ['-S', w.tmuxSocket, 'list-panes', '-a', '-F', '#{pane_id}\t#{@kh_name}\t#{pane_dead}\t#{@kh_monitor}'], (err, out) => {
      if (err) return resolve([]);
      const seen = new Map<string, PaneRow>();
      for (const line of out.split('\n')) {
        const [paneId, name, dead, monitor] = line.split('\t');
        if (!paneId || monitor === '1') continue;
        seen.set(paneId, { paneId, name: name ?? '', alive: dead === '0' });
      }
      resolve([...seen.values()]);
    });
  });
}

export interface Row { id: string; stage: string; live: boolean | null }

/**
 * The fleet's rows from the daemon's `status` (what `hand status --json` prints), over its
 * socket: a CLI start took seconds to reach the daemon on the loaded 2-core machine, and these
 * reads sit on the suite's critical path one after another.
 */
export function statusRows(w: FaultWorld): Promise<Row[]> {
  return call(homePaths(w.home), 'status', {}, { autostart: false });
}

/** `hand status --json` where no daemon runs (after a kill): the CLI starts the daemon again. */
export async function statusRowsRestartingTheDaemon(w: FaultWorld): Promise<Row[]> {
  const s = await w.hand(['status', '--json']);
  // A daemon that died while starting said why in daemon.out: the whole of it, not the CLI's last lines.
  const out = s.code === 0 ? '' : `\n--- daemon.out ---\n${readFileSync(homePaths(w.home).daemonOut, 'utf8').slice(-6000)}`;
  expect(s.code, s.stdout + s.stderr + out).toBe(0);
  return s.json as Row[];
}

const ENDED = new Set(['gone', 'failed', 'lost', 'stopped', 'landed', 'rejected']);
const top = (stage: string) => stage.split('.')[0]!;

/** Every live pane belongs to exactly one worker record, and that record says it is live. */
export function assertEveryLivePaneOwned(panes: PaneRow[], rows: Row[], when: string): void {
  for (const p of panes.filter((x) => x.alive)) {
    const owners = rows.filter((r) => r.id === p.name);
    expect(owners.length, `${when}: live pane ${p.paneId} (${p.name}) has ${owners.length} worker records`).toBe(1);
    expect(owners[0]!.live, `${when}: ${p.name} runs in ${p.paneId} but its record says live ${owners[0]!.live} at ${owners[0]!.stage}`).not.toBe(false);
    expect(ENDED.has(top(owners[0]!.stage)), `${when}: ${p.name} runs in ${p.paneId} but its record says ${owners[0]!.stage}`).toBe(false);
  }
}

/** No record says gone, failed or lost while its pane's process runs. */
export function assertNoEndedRecordWithALivePane(panes: PaneRow[], rows: Row[], when: string): void {
  const live = new Set(panes.filter((p) => p.alive).map((p) => p.name));
  for (const r of rows) {
    if (['gone', 'failed', 'lost'].includes(top(r.stage))) expect(live.has(r.id), `${when}: ${r.id} is ${r.stage} while its pane runs`).toBe(false);
  }
}

/** The journal's rows, as sequence numbers (read-only: the daemon may be running). */
export function journalSeqs(w: FaultWorld): number[] {
  const path = join(w.home, 'fleet.db');
  if (!existsSync(path)) return [];
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT seq FROM journal ORDER BY seq').all() as Array<{ seq: number }>).map((r) => r.seq);
  } finally {
    db.close();
  }
}

/** Nothing in the journal is lost: every row from before the fault is still there, and the sequence has no hole. */
export function assertJournalKept(before: number[], after: number[]): void {
  const kept = new Set(after);
  const lost = before.filter((s) => !kept.has(s));
  expect(lost, 'journal rows lost across the fault').toEqual([]);
  expect(after.length, 'the journal has a hole').toBe(after.length ? after.at(-1)! - after[0]! + 1 : 0);
}

/**
 * Waits until the restored daemon has done what it resumes. Every worker shows a condition
 * (settled, blocked, stalled, gone…), read from the daemon's `wait` — except the ones in
 * `atWork`, kept at work for the whole run (worker-states.ts), which never show one: each has
 * resumed once it is seen at work on its re-attached pane (live) or has ended. Before, their
 * `hand wait` could only end at the runner's 60 s kill, whose empty answer the check took for
 * "not a timeout": a minute of every run spent on a wait that could not succeed.
 */
export async function quiesce(w: FaultWorld, ids: string[], atWork: readonly string[] = []): Promise<void> {
  const resting = ids.filter((id) => !atWork.includes(id));
  const working = ids.filter((id) => atWork.includes(id));
  const resumed = (stage: string, row: WatchRow) => ENDED.has(top(stage)) || (stage === 'running.working' && row.live === true);
  // The daemon's `wait` (what `hand wait --until any` asks), over its socket: eleven CLI
  // processes fewer on a machine whose two cores the workers already share.
  const wait = (id: string) => call(homePaths(w.home), 'wait', { id, until: 'any', timeoutMs: 45_000 }, { autostart: false });
  const [results] = await Promise.all([
    Promise.all(resting.map(wait)),
    working.length ? seenAt(w, new Map(working.map((id) => [id, resumed])), 'the workers kept at work to be seen at work again on their re-attached panes') : null,
  ]);
  results.forEach((r, i) => expect(r.reason, `${resting[i]} never came to rest (the wait's 45 s bound passed at ${r.stage})`).not.toBe('timeout'));
}

/** `hand stop` ends every live worker: its pane's process is gone afterwards. */
export async function stopEveryLiveWorker(w: FaultWorld): Promise<void> {
  const rows = await statusRows(w);
  const live = rows.filter((r) => !ENDED.has(top(r.stage)));
  // --force: a parked worker's stop is refused without it (its decision is still open).
  const stops = await Promise.all(live.map((r) => w.hand(['stop', r.id, '--force', '--json'])));
  stops.forEach((s, i) => expect(s.code, `hand stop ${live[i]!.id}: ${s.stdout}${s.stderr}`).toBe(0));
  const panes = await workerPanes(w);
  for (const r of live) expect(panes.some((p) => p.name === r.id && p.alive), `${r.id} still runs after hand stop`).toBe(false);
}

/** Once gone, every id can be dispatched again, and the new worker comes to rest live. */
export async function redispatchEveryId(w: FaultWorld, ids: string[]): Promise<void> {
  // A report left by the first worker is refused as stale (by design): moved away, as that refusal says.
  for (const id of ids) {
    const report = join(w.home, 'workers', id, 'out', 'report.md');
    if (existsSync(report)) renameSync(report, `${report}.first`);
  }
  const results = await Promise.all(ids.map((id) => w.hand(['dispatch', id, '--repo', w.repo, '--brief', w.brief(`${id}-again`, 'work'), '--agent', 'mock', '--json'])));
  results.forEach((r, i) => expect(r.code, `re-dispatch ${ids[i]}: ${r.stdout}${r.stderr}`).toBe(0));
  await seenAt(w, new Map(ids.map((id) => [id, (s: string) => s.startsWith('settled')])), 'every re-dispatched worker to settle');
}

export async function killDaemon(w: Pick<CliWorld, 'hand' | 'home'>): Promise<void> {
  const pid = (await w.hand(['daemon', 'status', '--json'])).json.pid as number;
  process.kill(pid, 'SIGKILL');
  await waitFor(() => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  }, { what: `daemon ${pid} to die after SIGKILL` });
  await socketRefuses(join(w.home, 'hand.sock'));
}
