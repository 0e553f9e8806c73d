/**
 * The account given on return (reference §7.3): what landed, what waits on the person (first in
 * the text), what broke, what is still running (the only live reading), each open decision with
 * its question, and every damaged journal entry named — never reconstructed.
 * `awayAccountIfUnread` is the entry point for a session digest (`hand digest`): it answers
 * only while the journal holds entries the person has not been shown.
 */
import type { WorkStores } from '../../persistence/work/index.ts';
import type { JournalRead } from '../../persistence/work/away-store.ts';
import type { FleetHostApi } from '../../actors/fleet-api.ts';
import { labelOf } from '../../actors/notify/conditions.ts';
import { needOf, needsYouEvent } from '../../actors/needs-you.ts';

export type { AwayAccount } from '../../contract/methods.ts';
import type { AwayAccount } from '../../contract/methods.ts';
import { quotedOrEmpty, quoteWorker } from '../../contract/worker-words.ts';

/** A journal entry for a face: the question it kept (the worker's words, as read) quoted (issue 37). */
export function quotedEntry<E extends JournalRead>(e: E): E {
  return !e.damaged && e.question ? { ...e, question: quoteWorker(e.worker ?? 'unknown', e.question) } : e;
}

export function awayAccount(stores: WorkStores, fleet: Pick<FleetHostApi, 'views'>, opts: { markRead?: boolean } = {}): AwayAccount {
  const st = stores.away.state();
  const entries = stores.away.read({ afterSeq: st.readSeq }).map(quotedEntry);
  const ok = entries.filter((e): e is Extract<JournalRead, { damaged: false }> => !e.damaged);
  const damaged = entries.filter((e): e is Extract<JournalRead, { damaged: true }> => e.damaged).map((e) => ({ seq: e.seq, problem: e.problem }));
  const views = fleet.views();
  const open = stores.decisions.open();
  // What waits on the person now, whenever it began (a worker blocked before `afk on` was left
  // out when only journaled blocks counted): the wake's own rule and words (actors/needs-you.ts).
  // A parked worker is listed once, under its decision; a finished one under its own heading.
  const now = Date.now();
  const needs = views.map((v) => ({ v, need: needOf(v) }));
  const waiting = needs
    .filter(({ need }) => need !== null && need !== 'done' && need !== 'parked')
    .map(({ v, need }) => {
      const e = needsYouEvent(v, need!, null, now);
      return { worker: v.id, text: e.line.replace(/ — .*$|\s→ .*$/s, ''), ...(e.question ? { question: e.question } : {}), command: e.command };
    });
  const readyToLand = needs.filter(({ need }) => need === 'done').map(({ v }) =>
    v.readOnly ? { worker: v.id, text: `${v.id} finished its read-only report`, command: `hand close ${v.id}` } : { worker: v.id, text: `${v.id} finished and wrote its report`, command: `hand land ${v.id}` });
  const recorded = ok.filter((e) => e.kind !== 'away-on' && e.kind !== 'away-off').length;
  // What still waits counts whenever it began: "Nothing needed you" over a worker blocked since
  // before the absence was a lie the account told (the e2e run of issue 38 showed it).
  const waits = waiting.length + readyToLand.length + open.length;
  const happened = recorded === 0 ? (waits ? 'Nothing new happened while you were away.' : 'Nothing needed you.') : recorded === 1 ? 'One thing was recorded while you were away.' : `${recorded} things were recorded while you were away.`;
  const summary = waits ? `${happened} ${waits === 1 ? 'One thing waits' : `${waits} things wait`} on you.` : happened;
  const account: AwayAccount = {
    since: st.since ? new Date(st.since).toISOString() : null,
    note: st.note,
    summary: damaged.length ? `${summary} ${damaged.length} journal entr${damaged.length === 1 ? 'y is' : 'ies are'} damaged and not shown (nothing was reconstructed).` : summary,
    count: recorded,
    landed: ok.filter((e) => e.kind === 'landed').map((e) => ({ worker: e.worker, text: e.text, ...(e.pr ? { pr: e.pr } : {}) })),
    waitingOnYou: waiting,
    readyToLand,
    decisions: open.map((d) => ({ key: d.key, worker: d.worker, question: d.question, said: quoteWorker(d.worker, d.question), options: d.options, openedAt: new Date(d.openedAt).toISOString() })),
    broke: ok.filter((e) => e.kind === 'crashed').map((e) => ({ worker: e.worker, text: e.text })),
    // Only workers at work: one that waits on the person or has finished is listed where it belongs.
    stillRunning: views.filter((v) => v.live === true && labelOf(v) === 'busy' && needOf(v) === null).map((v) => ({ worker: v.id, stage: v.stage, state: v.state, lastActivity: quotedOrEmpty(v.id, v.lastActivity) })),
    damaged,
    entries,
  };
  if (opts.markRead && entries.length) stores.away.markRead(entries.at(-1)!.seq);
  return account;
}

/** For `hand digest`: the account while the journal has unread entries, else null. Marks nothing read. */
export function awayAccountIfUnread(stores: WorkStores, fleet: Pick<FleetHostApi, 'views'>): AwayAccount | null {
  const st = stores.away.state();
  if (stores.away.lastSeq() <= st.readSeq) return null;
  return awayAccount(stores, fleet);
}
