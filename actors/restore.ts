/**
 * Bringing the fleet back after a daemon restart: every worker row is checked on its own
 * (a corrupt or foreign row is reported and skipped, never fatal), the good ones are composed
 * into one fleet snapshot and restored — which re-runs their deadline actors with the ORIGINAL
 * absolute times — and each worker with a pane is re-attached to it:
 *   pane alive            → its feed restarts (and the screen is read again);
 *   pane exited meanwhile → EXITED with the recorded code;
 *   pane gone, pty host   → LOST (a pty child dies with the daemon; the worktree is kept);
 *   pane gone, tmux/herdr → PANE_MISSING with whether the server answered (down ≠ gone).
 */
import type { BackendName, TerminalHost } from '../io/terminal/types.ts';
import type { FleetStore, WorkerIntent, WorkerRow } from '../persistence/types.ts';
import type { FleetWorkerEntry } from '../machines/fleet.machine.ts';
import type { WorkerEvent } from '../machines/worker.types.ts';
import { checkWorkerRow, composeFleetSnapshot, fleetContextFrom, SNAPSHOT_VERSION } from './snapshot-codec.ts';
import type { Clock } from './ports.ts';

export interface RestoreOptions {
  store: FleetStore;
  hosts: Partial<Record<BackendName, TerminalHost>>;
  intents: Map<string, WorkerIntent>;
  /** Filled with each restored worker's snapshot (final ones leave the system registry). */
  known: Map<string, unknown>;
  live: Map<string, boolean | null>;
  /** Filled with the workers restored in `spawning` (their pane may exist already). */
  resumingSpawn: Set<string>;
  clock: Clock;
  startFleet(snapshot: unknown): void;
  route(id: string, event: WorkerEvent): void;
  attachFeed(id: string, paneId: string): void;
  log?: (obj: Record<string, unknown>) => void;
}

export function intentOfRow(row: WorkerRow): WorkerIntent {
  const { snapshotJson: _s, snapshotVersion: _v, updatedAt: _u, ...intent } = row;
  return intent;
}

export async function restoreFleet(o: RestoreOptions): Promise<{ restored: string[]; skipped: { id: string; reason: string }[] }> {
  const restored: string[] = [];
  const skipped: { id: string; reason: string }[] = [];
  const fleetRow = o.store.loadFleetSnapshot();
  const saved = fleetContextFrom(fleetRow && fleetRow.version === SNAPSHOT_VERSION ? fleetRow.json : null);
  const registry: Record<string, FleetWorkerEntry> = {};
  const children: Record<string, Record<string, unknown>> = {};
  const toAttach: { id: string; paneId: string }[] = [];

  for (const row of o.store.listWorkers()) {
    const checked = checkWorkerRow(row);
    if (!checked.ok) {
      skipped.push({ id: row.id, reason: checked.reason });
      o.log?.({ msg: 'worker row skipped on restore', id: row.id, reason: checked.reason });
      continue;
    }
    o.intents.set(row.id, intentOfRow(row));
    if (checked.status === 'error') {
      // A crashed actor is not revived: it stays visible as failed with its crash note.
      registry[row.id] = { status: 'failed', error: saved.workers[row.id]?.error ?? 'worker actor crashed' };
      continue;
    }
    children[row.id] = checked.snapshot;
    o.known.set(row.id, checked.snapshot);
    registry[row.id] = { status: checked.status === 'done' ? 'finished' : 'active', error: null };
    restored.push(row.id);
    if (checked.status === 'active' && checked.value === 'spawning') o.resumingSpawn.add(row.id);
    if (checked.status === 'active' && checked.context.paneId) toAttach.push({ id: row.id, paneId: checked.context.paneId });
  }

  o.startFleet(composeFleetSnapshot({ workers: registry }, children));

  // Re-attach a few workers at a time: each attach is a round trip to the terminal host (tmux
  // starts a client per session), and one after another made resuming 100 workers take 3.7 s.
  await forEachBounded(toAttach, ATTACH_CONCURRENCY, async ({ id, paneId }) => {
    const intent = o.intents.get(id)!;
    const host = o.hosts[intent.backend];
    if (!host) {
      o.live.set(id, null);
      o.log?.({ msg: 'no terminal host for restored worker', id, backend: intent.backend });
      return;
    }
    let info;
    try {
      info = await host.attach(paneId);
    } catch (err) {
      // The host did not answer about the pane: could-not-tell (wait-failed), and keep looking.
      o.live.set(id, null);
      o.log?.({ msg: 're-attach failed', id, paneId, err: String(err) });
      o.route(id, { type: 'PANE_MISSING', serverUp: false, at: o.clock.now() });
      o.attachFeed(id, paneId);
      return;
    }
    if (info === null) {
      o.live.set(id, false);
      if (!host.survivesRestart) {
        o.route(id, { type: 'LOST', at: o.clock.now() });
      } else {
        const server = await host.serverState().catch(() => ({ state: 'unknown' as const }));
        const serverUp = server.state === 'running';
        o.route(id, { type: 'PANE_MISSING', serverUp, at: o.clock.now() });
        // Could-not-tell: keep looking (the feed re-checks), so a server that comes back is seen.
        if (!serverUp) o.attachFeed(id, paneId);
      }
    } else if (info.alive === false) {
      o.live.set(id, false);
      o.route(id, { type: 'EXITED', code: info.exitCode, at: o.clock.now() });
    } else {
      o.attachFeed(id, paneId);
    }
  });
  return { restored, skipped };
}

const ATTACH_CONCURRENCY = 8;

async function forEachBounded<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}
