/**
 * The daemon's side of `hand hook`: the `hook` method, and the queue of notes a hook could not
 * hand over — written while the daemon was down (applied in order at start, before the socket
 * opens, so they come before anything new) or while it was too busy to answer within the hook's
 * bound (applied within a second, by `watchHookQueue`). A note for a worker the daemon no longer
 * has is dropped and logged.
 */
import { existsSync, renameSync, unlinkSync } from 'node:fs';
import { readUntrustedFileSync, refusalLine } from '../../io/fs/untrusted-file.ts';
import { RefusedError } from '../../contract/errors.ts';
import { isWorkersCapability } from '../../io/agent/claude/hook-capability.ts';
import { hookQueuePath, parseNote, type HookNote } from '../../contract/hook-note.ts';
import type { FleetHost } from '../../actors/fleet-host.ts';
import type { MethodTable } from '../../contract/protocol.ts';

type HookFleet = Pick<FleetHost, 'hook'>;

/** A note speaks for its worker only with that worker's capability; `home` absent: no check (tests of the fleet alone). */
function refuseForeignNote(home: string | undefined, note: HookNote): void {
  if (home === undefined || isWorkersCapability(home, note.id, note.cap)) return;
  throw new RefusedError('hook-not-yours', `this hook note names worker ${note.id} but does not carry that worker's capability (given to it at launch); a hook speaks only for its own worker. Nothing was recorded.`, { id: note.id });
}

export function hookHandlers(deps: { fleet: HookFleet; home?: string }): Pick<MethodTable, 'hook'> {
  return {
    // The note was parsed at the edge (fleet-methods.ts): a note that is none is refused there.
    async hook({ note }) {
      refuseForeignNote(deps.home, note);
      const v = await deps.fleet.hook(note);
      return { id: v.id, condition: v.condition, hookReason: v.hookReason ?? null, disputed: v.disputed ?? null };
    },
  };
}

/**
 * The most of a queue read at a start: thousands of notes. The queue is written by hooks that run
 * inside workers (issue 37): read without following a link or blocking, cut at this size.
 */
export const HOOK_QUEUE_CAP = 8 << 20;

/** Where a drain moves the queue before reading it (a drain a crash interrupted is finished from there). */
export const drainingPathOf = (queue: string): string => `${queue}.draining`;

/** Applies the queued notes (a drain interrupted by a crash is finished first); returns counts. */
export async function drainHookQueue(home: string, fleet: HookFleet, log: (obj: Record<string, unknown>, msg?: string) => void): Promise<{ applied: number; dropped: number }> {
  const queue = hookQueuePath(home);
  const draining = drainingPathOf(queue);
  // Renamed first: a hook appending now starts a new queue instead of racing this read.
  if (existsSync(queue) && !existsSync(draining)) renameSync(queue, draining);
  if (!existsSync(draining)) return { applied: 0, dropped: 0 };
  const notes: HookNote[] = [];
  let dropped = 0;
  const read = readUntrustedFileSync(draining, { maxBytes: HOOK_QUEUE_CAP });
  if (read.kind !== 'read') {
    if (read.kind === 'refused') log({ queue: draining, why: refusalLine(read) }, 'hook queue not read');
    unlinkSync(draining);
    return { applied: 0, dropped: 0 };
  }
  const lines = read.text.split('\n');
  // Cut at the cap: the last line may be half a note.
  if (read.truncated) {
    lines.pop();
    log({ queue: draining, size: read.size, cap: HOOK_QUEUE_CAP }, 'hook queue larger than its cap: the notes past it were dropped');
  }
  for (const line of lines) {
    if (!line.trim()) continue;
    let note: HookNote | null = null;
    try {
      note = parseNote(JSON.parse(line));
    } catch {
      note = null;
    }
    if (note) notes.push(note);
    else dropped++;
  }
  notes.sort((a, b) => a.at - b.at);
  let applied = 0;
  for (const note of notes) {
    try {
      // A queued note is held to the same rule: the queue file is no way around the capability.
      refuseForeignNote(home, note);
      await fleet.hook(note);
      applied++;
    } catch (err) {
      dropped++;
      log({ worker: note.id, event: note.event, err: String(err) }, 'queued hook note dropped');
    }
  }
  unlinkSync(draining);
  log({ applied, dropped }, 'hook queue drained');
  return { applied, dropped };
}

/** How often a running daemon looks for notes queued beside it: a hook's own bound is 2 s. */
export const HOOK_QUEUE_LOOK_MS = 1000;

/**
 * Drains the queue while the daemon runs. A hook that could not hand its note over within its
 * bound (the daemon busy, its socket slow) queues it; without this the note waited for the next
 * restart, and a worker's word — its Stop, its question — was lost to this daemon. A look is an
 * existence check; the drain is the start's (the rename first, so a hook appending meanwhile
 * starts a new queue, and `appendToQueue` writes again a line that landed after it).
 */
export function watchHookQueue(home: string, fleet: HookFleet, log: (obj: Record<string, unknown>, msg?: string) => void, everyMs = HOOK_QUEUE_LOOK_MS): { close(): Promise<void> } {
  const queue = hookQueuePath(home);
  // The drain under way, if any: a look during it waits for the next; close waits for it.
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running || (!existsSync(queue) && !existsSync(drainingPathOf(queue)))) return;
    running = drainHookQueue(home, fleet, log)
      .then(() => {}, (err: unknown) => log({ err: String(err) }, 'hook queue drain failed'))
      .finally(() => {
        running = null;
      });
  }, everyMs);
  timer.unref();
  return {
    async close() {
      clearInterval(timer);
      await running;
    },
  };
}
