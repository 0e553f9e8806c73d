/**
 * The notifier: queues a notification per target for each event that needs the person, and
 * delivers the queue in the background (bounded attempts, exponential backoff, one timer). It
 * never blocks the daemon: sends are async, each bounded by a timeout. The queue is in SQLite
 * (notify-store), so a restart resumes it and an acknowledged delivery is never repeated.
 */
import type { NotifyStore } from '../../persistence/work/notify-store.ts';
import { sendTo, type Notification } from './senders.ts';
import type { TargetFile } from './targets.ts';

export const MAX_ATTEMPTS = 8;
export const backoffMs = (attempts: number) => Math.min(60_000, 500 * 2 ** attempts);

export interface NotifierDeps {
  store: NotifyStore;
  targets: TargetFile;
  log: (obj: Record<string, unknown>, msg: string) => void;
  now?: () => number;
  sendTimeoutMs?: number;
}

export function createNotifier(deps: NotifierDeps) {
  const now = deps.now ?? Date.now;
  const inFlight = new Set<number>();
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  function schedule() {
    if (stopped) return;
    const next = deps.store.nextDue();
    if (timer) clearTimeout(timer);
    timer = null;
    if (next === null) return;
    timer = setTimeout(pump, Math.max(0, next - now()));
    timer.unref?.();
  }

  function pump() {
    timer = null;
    if (stopped) return;
    const targets = new Map(deps.targets.list().map((t) => [t.id, t]));
    for (const d of deps.store.due(now())) {
      if (inFlight.has(d.seq)) continue;
      const target = targets.get(d.targetId);
      if (!target) {
        deps.store.fail(d.seq, 'target removed');
        continue;
      }
      inFlight.add(d.seq);
      void sendTo(target, d.payload as unknown as Notification, deps.sendTimeoutMs).then((r) => {
        inFlight.delete(d.seq);
        if (stopped) return;
        if (r.ok) {
          deps.store.delivered(d.seq);
          deps.log({ target: d.targetId, event: d.eventKey, attempts: d.attempts + 1 }, 'notification delivered');
        } else if (d.attempts + 1 >= MAX_ATTEMPTS) {
          deps.store.fail(d.seq, r.error);
          deps.log({ target: d.targetId, event: d.eventKey, error: r.error }, 'notification failed for good');
        } else {
          deps.store.retry(d.seq, now() + backoffMs(d.attempts), r.error);
          deps.log({ target: d.targetId, event: d.eventKey, error: r.error, attempt: d.attempts + 1 }, 'notification target failed; will retry');
        }
        schedule();
      });
    }
    schedule();
  }

  return {
    /** Queues `n` for every target (once per event key) and wakes the sender. */
    notify(eventKey: string, n: Notification): number {
      const ids = deps.targets.list().map((t) => t.id);
      if (ids.length === 0) return 0;
      const added = deps.store.enqueue(eventKey, ids, n as unknown as Record<string, unknown>);
      if (added > 0) setImmediate(pump);
      return added;
    },
    start() {
      stopped = false;
      pump();
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
    /** `hand notify test`: straight to each target (or one), bypassing the queue; reports each result. */
    async test(onlyId?: string) {
      const list = deps.targets.list().filter((t) => !onlyId || t.id === onlyId);
      const n: Notification = { worker: 'test', project: null, condition: 'test', reason: 'kingshand test notification', question: null, lastLine: null, command: 'hand status', at: new Date(now()).toISOString(), test: true };
      return Promise.all(list.map(async (t) => ({ id: t.id, kind: t.kind, ...(await sendTo(t, n, deps.sendTimeoutMs)) })));
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;
