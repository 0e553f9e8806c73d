/**
 * Bringing the fleet back after a daemon restart, in two steps the fleet host calls:
 *
 * loadFleet: every worker row is checked on its own (a corrupt or foreign row is reported and
 * skipped, never fatal); the good ones become worker records and are composed into one fleet
 * snapshot, which the host restores — re-running their deadline actors with the ORIGINAL
 * absolute times. Nothing is mutated: the records are returned.
 *
 * reattachPanes: each restored worker with a pane is re-attached to it:
 *   pane alive            → its feed restarts (and the screen is read again);
 *   pane exited meanwhile → EXITED with the recorded code;
 *   pane gone, pty host   → LOST (a pty child dies with the daemon; the worktree is kept);
 *   its tmux server gone for certain (its process no longer runs: a reboot, a killed server)
 *                         → LOST, asked before the server is (issue 41: its conversation can be resumed);
 *   pane gone, tmux/herdr → PANE_MISSING with whether the server answered (down ≠ gone).
 */
import type { TerminalHost } from '../io/terminal/types.ts';
import type { FleetStore, WorkerIntent, WorkerRow } from '../persistence/types.ts';
import type { FleetWorkerEntry } from '../machines/fleet.machine.ts';
import type { WorkerEvent } from '../machines/worker.types.ts';
import { recheckSnapshotDeadlines } from './recheck-deadlines.ts';
import { checkWorkerRow, composeFleetSnapshot, fleetContextFrom, isRestorableVersion } from './snapshot-codec.ts';
import type { Clock } from './ports.ts';
import { meaningOfStage, stagePath } from './condition.ts';
import { newRecord, type WorkerRecord, type WorkerSnap } from './worker-record.ts';

export function intentOfRow(row: WorkerRow): WorkerIntent {
  const { snapshotJson: _s, snapshotVersion: _v, updatedAt: _u, ...intent } = row;
  return intent;
}

export interface LoadedFleet {
  /** One record per usable row (crashed actors included: they stay visible as failed). */
  records: WorkerRecord[];
  /** The fleet snapshot to start from, its restored workers as spawned children. */
  fleetSnapshot: unknown;
  /** Restored workers that had a pane: they are re-attached once the fleet runs. */
  panes: { id: string; paneId: string }[];
  restored: string[];
  skipped: { id: string; reason: string }[];
}

/** `now`: the new daemon's clock, against which every restored deadline is re-checked (actors/recheck-deadlines.ts). */
export function loadFleet(store: FleetStore, log?: (obj: Record<string, unknown>) => void, now?: number): LoadedFleet {
  const out: LoadedFleet = { records: [], fleetSnapshot: null, panes: [], restored: [], skipped: [] };
  const fleetRow = store.loadFleetSnapshot();
  const saved = fleetContextFrom(fleetRow && isRestorableVersion(fleetRow.version) ? fleetRow.json : null);
  const registry: Record<string, FleetWorkerEntry> = {};
  const children: Record<string, Record<string, unknown>> = {};

  for (const row of store.listWorkers()) {
    const checked = checkWorkerRow(row);
    if (!checked.ok) {
      out.skipped.push({ id: row.id, reason: checked.reason });
      log?.({ msg: 'worker row skipped on restore', id: row.id, reason: checked.reason });
      continue;
    }
    const intent = intentOfRow(row);
    if (checked.status === 'error') {
      // A crashed actor is not revived: it stays visible as failed with its crash note.
      registry[row.id] = { status: 'failed', error: saved.workers[row.id]?.error ?? 'worker actor crashed' };
      out.records.push(newRecord(intent));
      continue;
    }
    if (now !== undefined && checked.status === 'active') {
      checked.snapshot = recheckSnapshotDeadlines(checked.snapshot as Record<string, unknown>, now) as typeof checked.snapshot;
      checked.context = (checked.snapshot as { context: typeof checked.context }).context;
    }
    children[row.id] = checked.snapshot;
    registry[row.id] = { status: checked.status === 'done' ? 'finished' : 'active', error: null };
    const active = checked.status === 'active';
    out.records.push(newRecord(intent, { snapshot: checked.snapshot as unknown as WorkerSnap, resumingSpawn: active && meaningOfStage(stagePath(checked.value)).marks.includes('making-pane') }));
    out.restored.push(row.id);
    if (active && checked.context.paneId) out.panes.push({ id: row.id, paneId: checked.context.paneId });
  }
  out.fleetSnapshot = composeFleetSnapshot({ workers: registry }, children);
  return out;
}

export interface ReattachDeps {
  /** The terminal host a worker's pane lives on (this machine's, or its far host's). */
  hostFor(intent: WorkerIntent): TerminalHost | undefined;
  clock: Clock;
  recordOf(id: string): WorkerRecord;
  route(id: string, event: WorkerEvent): void;
  attachFeed(id: string, paneId: string): void;
  /** Why the server the worker's pane was made on is gone for certain (io/terminal/tmux/server-gone.ts), or null: it runs, or could not tell. */
  serverGone?(intent: WorkerIntent): string | null;
  log?: (obj: Record<string, unknown>) => void;
}

/** What the hosts were asked before the attaches (beginReattach): each host's identity, and their listings done. */
export interface ReattachBegun {
  identityOf(host: TerminalHost): Promise<string | null>;
  ready: Promise<void>;
}

/**
 * Asks each host what a resume's attaches need — its identity (one question a host, not one a
 * worker: each is a tmux or ssh process, and a hundred of them sat on the path of every resume,
 * issue 26) and all its panes in one listing (tmux: one list-panes) — and returns at once. Called
 * as soon as the stored records are known, before the actors are made: the first process each
 * question starts is forked while the daemon is still small (a fork copies the daemon's page
 * tables; at 500 restored actors two tmux starts held its thread ~80 ms) and answers while the
 * actors are being made (docs/2026-12-07-a-resume-asks-its-hosts-before-making-its-actors.md).
 */
export function beginReattach(panes: readonly { id: string; paneId: string }[], d: Pick<ReattachDeps, 'hostFor' | 'recordOf'>): ReattachBegun {
  const identities = new Map<object, Promise<string | null>>();
  const identityOf = (host: TerminalHost): Promise<string | null> => {
    let known = identities.get(host);
    if (!known) identities.set(host, (known = host.serverIdentity ? host.serverIdentity().catch(() => null) : Promise.resolve(null)));
    return known;
  };
  const byHost = new Map<TerminalHost, string[]>();
  for (const { id, paneId } of panes) {
    const record = d.recordOf(id);
    const host = d.hostFor(record.intent);
    if (!host) continue;
    if (record.intent.paneServer) void identityOf(host);
    if (host.prepareAttach) byHost.set(host, [...(byHost.get(host) ?? []), paneId]);
  }
  const ready = Promise.all([...byHost].map(([host, ids]) => host.prepareAttach!(ids).catch(() => {}))).then(() => {});
  return { identityOf, ready };
}

/** Re-attaches every restored pane (`begun`: what beginReattach already asked, else asked now). */
export async function reattachPanes(panes: readonly { id: string; paneId: string }[], d: ReattachDeps, begun: ReattachBegun = beginReattach(panes, d)): Promise<void> {
  // Re-attach a few workers at a time: each attach is a round trip to the terminal host (tmux
  // starts a client per session), and one after another made resuming 100 workers take 3.7 s.
  const { identityOf } = begun;
  // A server not found gone is not asked again in this pass: 500 restored workers share one, and
  // each question is three /proc reads (~18 ms a resume of 500, issue 46). One found gone is asked
  // per worker (its words name the worker), and the next resume asks afresh.
  const running = new Set<string>();
  const serverGone = (intent: WorkerIntent): string | null => {
    const key = intent.paneServer ? `${intent.host ?? 'local'}\0${intent.backend}\0${intent.paneServer}` : null;
    if (key && running.has(key)) return null;
    const why = d.serverGone?.(intent) ?? null;
    if (key && why === null) running.add(key);
    return why;
  };
  await begun.ready;
  await forEachBounded(panes, ATTACH_CONCURRENCY, async ({ id, paneId }) => {
    const record = d.recordOf(id);
    const host = d.hostFor(record.intent);
    if (!host) {
      record.live = null;
      d.log?.({ msg: 'no terminal host for restored worker', id, backend: record.intent.backend });
      return;
    }
    // The server the pane was made on no longer runs (a reboot, a killed server): the agent went
    // with it, its conversation is on disk. Lost, never "could not tell" for ever.
    const gone = serverGone(record.intent);
    if (gone) {
      record.live = false;
      d.log?.({ msg: 'the terminal server of this pane is gone: the worker is lost', id, paneId, why: gone });
      d.route(id, { type: 'LOST', at: d.clock.now(), why: gone });
      return;
    }
    // A server that restarted while no daemon watched numbers its panes from %0 again: the pane
    // of this id now may be another worker's. Told by the server's pid and start time, never guessed.
    const server = record.intent.paneServer ? await identityOf(host) : null;
    if (server && server !== record.intent.paneServer) {
      record.live = false;
      d.log?.({ msg: 'the terminal server restarted since this pane was made: not re-attached', id, paneId, was: record.intent.paneServer, now: server });
      d.route(id, { type: 'PANE_MISSING', serverUp: true, at: d.clock.now() });
      return;
    }
    let info;
    try {
      info = await host.attach(paneId);
    } catch (err) {
      // The host did not answer about the pane: could-not-tell (wait-failed), and keep looking.
      record.live = null;
      d.log?.({ msg: 're-attach failed', id, paneId, err: String(err) });
      d.route(id, { type: 'PANE_MISSING', serverUp: false, at: d.clock.now() });
      d.attachFeed(id, paneId);
      return;
    }
    if (info === null) {
      record.live = false;
      if (!host.survivesRestart) {
        d.route(id, { type: 'LOST', at: d.clock.now() });
      } else {
        const server = await host.serverState().catch(() => ({ state: 'unknown' as const }));
        const serverUp = server.state === 'running';
        d.route(id, { type: 'PANE_MISSING', serverUp, at: d.clock.now() });
        // Could-not-tell: keep looking (the feed re-checks), so a server that comes back is seen.
        if (!serverUp) d.attachFeed(id, paneId);
      }
    } else if (info.alive === false) {
      record.live = false;
      d.route(id, { type: 'EXITED', code: info.exitCode, at: d.clock.now() });
    } else {
      d.attachFeed(id, paneId);
    }
  });
}

const ATTACH_CONCURRENCY = 8;

async function forEachBounded<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}
