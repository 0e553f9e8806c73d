/**
 * What `hand daemon stop` leaves behind. tmux workers outlive the daemon by design (they are
 * re-attached at the next start), so a live worker keeps the private tmux server running and the
 * answer says how many and how to stop them. With no live worker the server is shut down with
 * the daemon: nothing dead is left on the socket. The tmux server's own pane list must agree —
 * a list that cannot be read is "could not tell" and keeps the server (never killed on a guess).
 */
import type { TmuxHost } from '../io/terminal/tmux/tmux-host.ts';
import type { FleetHostApi } from '../actors/fleet-api.ts';
import { conditionOf } from '../actors/wait-report.ts';

/** Held at the brief gate: nothing was made for them yet (no worktree, no terminal), so nothing runs. */
const gateHeld = (v: { marks: readonly string[] }): boolean => v.marks.includes('brief-gate');

/** Workers whose agent may still be running (unknown liveness counts as live); gate-held ones have none. */
export function liveWorkerIds(fleet: Pick<FleetHostApi, 'views'>): string[] {
  return fleet
    .views()
    .filter((v) => conditionOf(v) !== 'gone' && !gateHeld(v))
    .map((v) => v.id);
}

export function gateHeldWorkerIds(fleet: Pick<FleetHostApi, 'views'>): string[] {
  return fleet.views().filter(gateHeld).map((v) => v.id);
}

export function stopAdvice(live: string[], held: string[] = []): string | null {
  const out: string[] = [];
  if (live.length > 0) out.push(`${live.length} worker(s) keep running: ${live.join(', ')}. Stop each with hand stop <id> (then hand daemon stop again to shut their tmux server down), or leave them: hand daemon start re-attaches them.`);
  // Told apart: "keeps running" about a worker with no terminal misled the person.
  if (held.length > 0) out.push(`${held.length} worker(s) wait at their brief gate with no terminal yet: ${held.join(', ')}. Nothing runs for them; after the next start, hand approve <id> starts one.`);
  return out.length ? out.join(' ') : null;
}

export type TmuxOutcome = 'stopped' | 'kept-live-workers' | 'kept-could-not-tell' | 'no-tmux';

/** Called by the daemon after the fleet stopped: kills the private server only when nothing lives on it. */
/**
 * Either way the daemon lets go of the server: its control client is closed (a kept server's panes
 * run on), so nothing of this daemon still listens, or reconnects, once it has stopped — a daemon
 * run in a process that lives on (a test world) used to leave its watchers attached, and they
 * started a fresh server after the next daemon killed this one.
 */
export async function shutTmuxIfIdle(tmux: TmuxHost | undefined, liveIds: string[]): Promise<TmuxOutcome> {
  if (!tmux) return 'no-tmux';
  const outcome = await idleOutcome(tmux, liveIds).finally(() => tmux.dispose());
  if (outcome === 'stopped') await tmux.killServer();
  return outcome;
}

async function idleOutcome(tmux: TmuxHost, liveIds: string[]): Promise<TmuxOutcome> {
  if (liveIds.length > 0) return 'kept-live-workers';
  const listed = await tmux.list();
  if (!listed.ok) return 'kept-could-not-tell';
  if (listed.panes.some((p) => p.alive !== false)) return 'kept-live-workers';
  return 'stopped';
}
