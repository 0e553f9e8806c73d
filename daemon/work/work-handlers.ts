/**
 * Request handlers for the work that outlives a conversation (issue 13): the backlog, held
 * decisions, away mode and its journal, notification targets and the usage pulse. What these
 * rules mean for the fleet's own methods (a parked worker, the usage limit, an item's brief) is
 * in cross-rules.ts, called from each method in its family's table (work-methods.ts, fleet/fleet-methods.ts, …).
 */
import { quoteWorker } from '../../contract/worker-words.ts';
import { RefusedError, UsageError } from '../../contract/errors.ts';
import type { MethodTable } from '../../contract/protocol.ts';
import type { ItemRow, MethodName } from '../../contract/methods.ts';
import { conditionOf } from '../../actors/wait-report.ts';
import type { FleetStore } from '../../persistence/types.ts';
import type { WorkStores } from '../../persistence/work/index.ts';
import type { BacklogItem } from '../../persistence/work/backlog-store.ts';
import type { FleetHostApi } from '../../actors/fleet-api.ts';
import type { Notifier } from '../../actors/notify/notifier.ts';
import { makeTarget, publicTarget, type TargetFile } from '../../actors/notify/targets.ts';
import { awayAccount, awayAccountIfUnread, quotedEntry } from './away-account.ts';
import type { WorkWatch } from './work-watch.ts';
import { deliverByRelaunch } from './decision-delivery.ts';
import { readUsage, REFUSE_AT, usageLine, usageSourceFile } from '../../actors/usage/usage.ts';
import { limitLine, limitsSeen } from '../../actors/usage/limit-seen.ts';

export interface WorkHandlerDeps {
  store: FleetStore;
  fleet: FleetHostApi;
  stores: WorkStores;
  notifier: Notifier;
  targets: TargetFile;
  watch: WorkWatch;
  home: string;
  log: (obj: Record<string, unknown>, msg: string) => void;
}

function itemRow(i: BacklogItem): ItemRow {
  return {
    ...i,
    held: i.hold !== null,
    ready: i.state === 'queued' && !i.hold && i.waitingOn.length === 0,
    createdAt: new Date(i.createdAt).toISOString(),
    updatedAt: new Date(i.updatedAt).toISOString(),
    closedAt: i.closedAt === null ? null : new Date(i.closedAt).toISOString(),
  };
}

/** The work methods: every name of the map under backlog., afk., notify., usage, and decisions, decide, journal, work.summary. */
export type WorkMethodName = Extract<MethodName, `backlog.${string}` | `afk.${string}` | `notify.${string}` | `usage${string}` | 'decisions' | 'decide' | 'journal' | 'work.summary'>;
export type WorkMethods = Pick<MethodTable, WorkMethodName>;

// Each method's params were read at the edge (work-methods.ts): required text is there and not blank.
export function workHandlers(deps: WorkHandlerDeps): WorkMethods {
  const { stores, fleet } = deps;
  const usageSource = usageSourceFile(deps.home);
  const b = stores.backlog;
  return {
    async 'backlog.add'({ project, id, title, brief }) {
      if (!deps.store.getProject(project)) throw new RefusedError('unknown-project', `no project ${JSON.stringify(project)} is registered. \`hand projects\` lists them; hand annex <repo> registers one.`, { project });
      return itemRow(b.add({ id, project: deps.store.getProject(project)!.name, title, brief: brief ?? null }));
    },
    async 'backlog.list'({ state }) {
      return b.list().filter((i) => (state ? i.state === state : i.state !== 'dropped')).map(itemRow);
    },
    async 'backlog.ready'() {
      return b.ready().map(itemRow);
    },
    async 'backlog.show'({ id }) {
      return itemRow(b.get(id));
    },
    async 'backlog.start'({ id }) {
      return itemRow(b.start(id));
    },
    async 'backlog.hold'({ id, reason, kind }) {
      return itemRow(b.hold(id, reason, kind));
    },
    async 'backlog.unhold'({ id }) {
      return itemRow(b.unhold(id));
    },
    async 'backlog.block'({ id, by }) {
      return itemRow(b.block(id, by));
    },
    async 'backlog.done'({ id, pr, note }) {
      const released = b.list().filter((i) => i.waitingOn.includes(id)).map((i) => i.id);
      const held = b.get(id).hold;
      const done = b.done(id, { pr: pr ?? null, note: note ?? null });
      if (held) journalHoldCleared(stores, done, held);
      return { ...itemRow(done), released };
    },
    async 'backlog.reopen'({ id }) {
      return itemRow(b.reopen(id));
    },
    async 'backlog.drop'({ id }) {
      const held = b.get(id).hold;
      const dropped = b.drop(id);
      if (held) journalHoldCleared(stores, dropped, held);
      return itemRow(dropped);
    },

    async decisions({ all }) {
      return (all ? stores.decisions.all() : stores.decisions.open()).map((d) => ({ ...d, said: quoteWorker(d.worker, d.question), openedAt: new Date(d.openedAt).toISOString(), closedAt: d.closedAt === null ? null : new Date(d.closedAt).toISOString() }));
    },
    async decide({ key, declined, answer }) {
      if (!declined && !answer) throw new UsageError('answer-required', `give the answer: hand decide ${key} "<answer>", or close it without work: hand decide ${key} --declined "<why>".`, { key });
      stores.decisions.requireOpen(key);
      const away = stores.away.state().active;
      if (declined) {
        const d = stores.decisions.decline(key, declined);
        if (away) stores.away.append({ kind: 'decided', text: `${key} declined: ${declined}`, worker: d.worker, decision: key });
        return { key, state: d.state, worker: d.worker, answer: declined, delivery: null, message: `${key} declined; nothing is sent to ${d.worker}.` };
      }
      const said = answer ?? ''; // given: the check above refused neither
      const d = stores.decisions.answer(key, said);
      if (away) stores.away.append({ kind: 'decided', text: `${key} answered: ${said}`, worker: d.worker, decision: key });
      const r = await deps.watch.deliver(d);
      const after = stores.decisions.get(key)!;
      if (r.delivered) return { key, state: after.state, worker: d.worker, answer: said, delivery: 'sent', message: `answer typed into ${d.worker}.` };
      const v = fleet.view(d.worker);
      if (!v || v.live === false || conditionOf(v) === 'gone') {
        // Not live (its session is gone, not merely unread): a relaunch carries the answer in its progress note (decision-delivery.ts).
        const rl = await deliverByRelaunch({ stores, relaunch: { store: deps.store, fleet }, log: deps.log }, after);
        const now = stores.decisions.get(key)!;
        if (rl.delivered) return { key, state: now.state, worker: d.worker, answer: said, delivery: 'relaunched', relaunch: { progressNotePath: rl.relaunch.progressNotePath, stage: rl.relaunch.stage }, message: `${d.worker} was not live, so it was relaunched with the question and the answer in its progress note (${rl.relaunch.progressNotePath}).` };
        return { key, state: now.state, worker: d.worker, answer: said, delivery: 'pending', why: rl.why, refused: rl.code, message: `answer recorded, pending delivery: ${d.worker} is not live and could not be relaunched with it (${rl.code}: ${rl.why})` };
      }
      return { key, state: after.state, worker: d.worker, answer: said, delivery: 'pending', why: r.why, message: `answer recorded, pending delivery: ${r.why}; it is typed in once ${d.worker} sits at an empty input box.` };
    },

    async 'afk.on'({ note }) {
      const r = stores.away.on(note ?? null);
      const unreadable = fleet.views().filter((v) => v.live === true && !v.readable).map((v) => v.id);
      return { away: true, since: new Date(r.state.since!).toISOString(), note: r.state.note, refreshed: r.refreshed, unreadable };
    },
    async 'afk.off'() {
      const was = stores.away.state();
      const account = awayAccount(stores, fleet, { markRead: true });
      stores.away.off();
      return { away: false, wasAway: was.active, account };
    },
    /** What a session digest shows: the away account while unread entries exist (null otherwise); marks nothing read. */
    async 'afk.digest'() {
      return awayAccountIfUnread(stores, fleet);
    },
    async 'afk.status'() {
      const s = stores.away.state();
      return { away: s.active, since: s.since ? new Date(s.since).toISOString() : null, note: s.note, unread: Math.max(0, stores.away.lastSeq() - s.readSeq) };
    },
    // An unreadable --since was refused at the edge (work-methods.ts).
    async journal({ since, sinceMs }) {
      const sinceAt = since ? Date.parse(since) : sinceMs !== undefined ? Date.now() - sinceMs : 0;
      return stores.away.read({ sinceAt }).map((e) => ({ ...quotedEntry(e), at: new Date(e.at).toISOString() }));
    },

    async 'notify.add'({ kind, args, allowLoopback }) {
      const r = deps.targets.add(makeTarget(kind, args ?? [], Date.now(), { allowLoopback: allowLoopback === true }));
      deps.log({ target: r.target.id, kind: r.target.kind, added: r.added }, 'notification target added');
      return { ...publicTarget(r.target), added: r.added };
    },
    async 'notify.list'() {
      const problems = new Map(stores.notify.problems().map((x) => [x.targetId, x]));
      return deps.targets.list().map((t) => ({ ...publicTarget(t), failing: problems.get(t.id) ?? null }));
    },
    async 'notify.remove'({ id }) {
      const t = deps.targets.remove(id);
      stores.notify.dropTarget(t.id);
      return { ...publicTarget(t), removed: true };
    },
    async 'notify.test'({ id }) {
      return deps.notifier.test(id);
    },
    async 'notify.log'() {
      // A notification's action URLs are capabilities for the person's answers (issue 42): the
      // log says they were sent, never what they were, so whoever reads it (the Hand) cannot use them.
      return stores.notify.recent(50).map((d) => ({ ...d, payload: withoutCapabilities(d.payload), createdAt: new Date(d.createdAt).toISOString(), deliveredAt: d.deliveredAt ? new Date(d.deliveredAt).toISOString() : null }));
    },

    async usage() {
      const r = await readUsage(usageSource.get());
      // A worker that met its plan's limit says so on its screen: the person hears it here even
      // with no usage source configured.
      const seen = limitsSeen(fleet.views());
      const met = limitLine(seen);
      return { ...r, line: met ? `${usageLine(r)}; ${met}` : usageLine(r), refuseAt: REFUSE_AT, limitsSeen: seen };
    },
    async 'usage.source'({ clear, argv = [] }) {
      if (clear) {
        usageSource.clear();
        return { source: null };
      }
      usageSource.set(argv);
      return { source: argv };
    },

    async 'work.summary'() {
      const items = b.list();
      const count = (s: string) => items.filter((i) => i.state === s).length;
      const away = stores.away.state();
      return {
        backlog: { queued: count('queued'), ready: b.ready().length, inFlight: count('in-flight'), held: items.filter((i) => i.hold && (i.state === 'queued' || i.state === 'in-flight')).length, done: count('done') },
        decisions: stores.decisions.open().map((d) => ({ key: d.key, worker: d.worker, question: d.question, said: quoteWorker(d.worker, d.question) })),
        away: { active: away.active, since: away.since ? new Date(away.since).toISOString() : null, note: away.note, unread: Math.max(0, stores.away.lastSeq() - away.readSeq) },
        notify: { targets: deps.targets.list().length, failing: stores.notify.problems() },
      };
    },
  };
}

/** A hold goes with its item's end (persistence/work/backlog-store.ts), and the journal says so. */
export function journalHoldCleared(stores: WorkStores, item: { id: string; state: string; project: string; worker: string | null }, hold: { kind: string; reason: string }): void {
  stores.away.append({ kind: 'note', text: `item ${item.id} is ${item.state}: its hold (${hold.kind}: ${hold.reason}) is cleared`, project: item.project, ...(item.worker ? { worker: item.worker } : {}) });
}

/** A queued notification's payload with its capability URLs withheld (labels kept). */
function withoutCapabilities(payload: Record<string, unknown>): Record<string, unknown> {
  const { actions, view, ...rest } = payload;
  const withheld = '(capability withheld)';
  return {
    ...rest,
    ...(Array.isArray(actions) && { actions: actions.map((a: Record<string, unknown>) => ({ ...a, url: withheld })) }),
    ...(typeof view === 'string' && { view: withheld }),
  };
}
