/**
 * Follows the daemon's worker view stream (the one `hand wait` uses) and turns what it shows
 * into durable work state: a parked worker gets its decision record; an answered decision
 * waiting for a live session is typed in once the worker sits at an empty box; a landed
 * worker closes its backlog item; and every change of a worker's label (notify/conditions.ts)
 * becomes, once per worker and label, a notification (if it needs the person) and — while the
 * person is away — a journal entry. The last label per worker is persisted, so a restart
 * neither repeats nor loses one.
 */
import type { FleetHostApi, WorkerViewLike } from '../../actors/fleet-api.ts';
import type { WorkStores } from '../../persistence/work/index.ts';
import type { JournalKind } from '../../persistence/work/away-store.ts';
import { describe, labelOf, NEEDS_PERSON, type Label } from '../../actors/notify/conditions.ts';
import { quotedOrNull } from '../../contract/worker-words.ts';
import type { Notifier } from '../../actors/notify/notifier.ts';
import { readWaitingOn } from '../../io/brief/report-question.ts';
import { boxTakesTheAnswer, deliverAnswer, type Delivered } from './decision-delivery.ts';
import { journalHoldCleared } from './work-handlers.ts';
import type { Decision } from '../../persistence/work/decision-store.ts';
import type { PhoneLinks } from '../../actors/phone/phone-links.ts';

const JOURNAL_KIND: Partial<Record<Label, JournalKind>> = {
  blocked: 'blocked', gate: 'gate', parked: 'decision', crashed: 'crashed', settled: 'settled', done: 'done', stalled: 'stalled', landed: 'landed',
};

export interface WorkWatchDeps {
  fleet: FleetHostApi;
  stores: WorkStores;
  notifier: Notifier;
  /** Answers and a view link for a notification (issue 42); absent or without a public URL: none. */
  phoneLinks?: PhoneLinks;
  log: (obj: Record<string, unknown>, msg: string) => void;
}

export interface WorkWatch {
  stop(): void;
  /** Resolves once the records and deliveries started so far are written (tests, shutdown). */
  settled(): Promise<void>;
  /** Types an answered decision into its worker; one delivery per worker at a time. */
  deliver(d: Decision): Promise<Delivered>;
}

export function startWorkWatch(deps: WorkWatchDeps): WorkWatch {
  const { stores, fleet } = deps;
  const delivering = new Map<string, Promise<Delivered>>();
  const chains = new Map<string, Promise<void>>();
  const pending = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>) => {
    pending.add(p);
    void p.finally(() => pending.delete(p));
    return p;
  };

  async function ensureDecision(v: WorkerViewLike): Promise<void> {
    if (!v.waitingOn) return;
    const fromReport = await readWaitingOn(v.reportPath);
    const question = v.waitingOn;
    const options = fromReport && fromReport.question === question ? fromReport.options : [];
    const { decision, created } = stores.decisions.ensure({ worker: v.id, project: v.project, question, options });
    if (created) deps.log({ worker: v.id, decision: decision.key }, 'decision opened');
  }

  /** A view link always; answers only for a dialog on screen (blocked) or a parked decision's options. */
  function linksFor(v: WorkerViewLike, label: Label, decision: Decision | null) {
    if (!deps.phoneLinks) return null;
    try {
      // A gate's or a crash's screen may still draw a menu: only a blocked worker's is its question.
      const dialogView = label === 'blocked' ? v : { ...v, dialog: null };
      return deps.phoneLinks.actionsFor(dialogView, decision && decision.state === 'open' ? decision : null);
    } catch (err) {
      deps.log({ worker: v.id, err: String(err) }, 'could not make the notification\'s links; notifying without them');
      return null;
    }
  }

  function onLabel(v: WorkerViewLike, label: Label): void {
    const mark = stores.notify.mark(v.id);
    if (mark && mark.condition === label) return;
    const episode = (mark?.episode ?? 0) + 1;
    // A locked or full database must not swallow the person's notification: the mark (which
    // only de-duplicates across a restart) is best effort, the push is not.
    try {
      stores.notify.setMark(v.id, label, episode);
    } catch (err) {
      deps.log({ worker: v.id, label, err: String(err) }, 'could not record the notification mark; notifying anyway');
    }
    if (label === 'busy' || label === 'exited') return;
    const ev = describe(v, label);
    if (NEEDS_PERSON.has(label)) {
      // Made now, for this dialog or decision: each action is one answer, good once, for minutes.
      const decision = label === 'parked' && ev.decision ? stores.decisions.get(ev.decision) : null;
      const phone = linksFor(v, label, decision);
      deps.notifier.notify(`${v.id}:${label}:${episode}`, {
        ...(phone && { view: phone.view, ...(phone.actions.length > 0 && { actions: phone.actions }) }),
        worker: ev.worker, project: ev.project, host: ev.host, condition: label, reason: ev.reason,
        // The worker's words reach a phone, a webhook or a command quoted and attributed (issue 37).
        question: quotedOrNull(v.id, ev.question), lastLine: quotedOrNull(v.id, ev.lastLine), command: ev.command, at: new Date().toISOString(),
      });
    }
    const kind = JOURNAL_KIND[label];
    if (kind && stores.away.state().active) {
      stores.away.append({
        kind, text: ev.reason, worker: v.id, project: v.project,
        ...(ev.question ? { question: ev.question } : {}), ...(ev.decision ? { decision: ev.decision } : {}), ...(ev.pr ? { pr: ev.pr } : {}),
      });
    }
  }

  function closeItemIfLanded(v: WorkerViewLike, label: Label): void {
    if (label !== 'landed') return;
    const item = stores.backlog.itemOfWorker(v.id);
    if (!item || (item.state !== 'queued' && item.state !== 'in-flight')) return;
    const ev = describe(v, label);
    const done = stores.backlog.done(item.id, { pr: ev.pr, note: `landed by worker ${v.id}` });
    if (item.hold) journalHoldCleared(stores, done, item.hold);
    deps.log({ worker: v.id, item: item.id }, 'backlog item done (landed)');
  }

  function deliverPending(v: WorkerViewLike, label: Label): void {
    if (delivering.has(v.id) || v.live !== true || v.promptBox === null) return;
    if (label !== 'parked' && label !== 'settled' && label !== 'done') return;
    const [next] = stores.decisions.pendingOf(v.id);
    // An empty box, or our answer left in it by a daemon killed mid-delivery (decision-delivery.ts).
    if (next && boxTakesTheAnswer(next, v.promptBox, v.reportPath)) void deliver(next);
  }

  /**
   * The one owner of a live delivery. The worker is claimed before any I/O starts: the send
   * itself publishes views, and a view seen before the claim (deliverPending) used to start a
   * second delivery of the same answer, typed into the same prompt (issue 21).
   */
  function deliver(d: Decision): Promise<Delivered> {
    const running = delivering.get(d.worker);
    if (running) return running;
    const p = track(
      Promise.resolve()
        .then(() => deliverAnswer({ fleet, stores, log: deps.log }, d))
        .finally(() => delivering.delete(d.worker)),
    );
    delivering.set(d.worker, p);
    return p;
  }

  function consider(v: WorkerViewLike): void {
    try {
      const label = labelOf(v);
      // One chain per worker: a parked label waits for its decision record (a file read), and a
      // later label must not overtake it, or the stored last label would be the older one.
      const prev = chains.get(v.id) ?? Promise.resolve();
      const next = prev
        .then(() => (label === 'parked' ? ensureDecision(v) : undefined))
        .then(() => onLabel(v, label))
        .catch((err) => deps.log({ worker: v.id, err: String(err) }, 'work watch failed on a view'));
      chains.set(v.id, next);
      void track(next);
      closeItemIfLanded(v, label);
      deliverPending(v, label);
    } catch (err) {
      deps.log({ worker: v.id, err: String(err) }, 'work watch failed on a view');
    }
  }

  const unsubscribe = fleet.subscribe(consider);
  for (const v of fleet.views()) consider(v);
  return {
    stop: unsubscribe,
    deliver,
    async settled() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };
}
