/**
 * The rules that cut across methods, each written once and called by name from the method that
 * obeys it (daemon/<family>/<family>-methods.ts), so a reader of `land` sees the parked refusal there:
 * - a worker parked on an open decision is never stopped, landed, approved, discarded or
 *   relaunched while it is open (reference §3.6);
 * - dispatch refuses at or above the usage limit, and warns (fail open) with no reading;
 * - a backlog item supplies a dispatch's id, repo and brief, and only a ready one is dispatched
 *   (not held, not blocked, away mode off);
 * - review-gate findings refused at landing become decisions;
 * - a brief rejected at its gate or a discarded worker returns its backlog item to the queue;
 * - status rows name the worker's item and latest decision.
 */
import { quoteWorker } from '../contract/worker-words.ts';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HandError, RefusedError } from '../contract/errors.ts';
import type { DiscardAll, DiscardedWorker, DiscardParams, DispatchAnswer, DispatchParams, DispatchResult, PermissionPosture, StatusRow, WorkerStatus } from '../contract/methods.ts';
import type { FleetStore } from '../persistence/types.ts';
import type { WorkStores } from '../persistence/work/index.ts';
import type { BacklogItem } from '../persistence/work/backlog-store.ts';
import type { FleetHostApi } from '../actors/fleet-api.ts';
import { discardable } from './gates/discard.ts';
import { findingsToDecisions } from './gates/gate-findings-decisions.ts';
import { readUsage, REFUSE_AT, usageLine, usageSourceFile } from '../actors/usage/usage.ts';
import { limitLine, limitsSeen } from '../actors/usage/limit-seen.ts';
import { requeueItemOf, type RequeueWhy } from './work/item-requeue.ts';
import { budgetAllowsDispatch } from '../actors/usage/budget.ts';
import { realpathSync } from 'node:fs';
import type { ProjectRecord } from '../contract/methods.ts';

/** The registered project a dispatch's repo is (or is inside), or null (dispatch refuses that itself). */
function projectOfRepo(store: FleetStore, repo: string | undefined): ProjectRecord | null {
  if (!repo) return null;
  let real = repo;
  try {
    real = realpathSync(repo);
  } catch {
    // dispatch says what is wrong with it
  }
  return store.getProject(repo) ?? store.getProject(real) ?? store.listProjects().find((p) => real.startsWith(`${p.repo}/`)) ?? null;
}


export interface CrossRules {
  refuseIfParked(worker: string, verb: string, override?: string): void;
  usageAllowsDispatch(): Promise<string[]>;
  itemForDispatch(p: DispatchParams & { item: string }): { item: BacklogItem; params: DispatchParams; staged: string | null };
  itemStarted(item: BacklogItem, worker: string): void;
  findingsAsDecisions(worker: string, err: unknown): unknown;
  withItemAndDecision(rows: (StatusRow & { permissions: PermissionPosture })[]): WorkerStatus[];
  discardAllButParked(discard: (p: DiscardParams) => Promise<DiscardedWorker>, p: DiscardParams): Promise<DiscardAll>;
  /** A worker that will never do its item's work gives the item back to the queue (item-requeue.ts). */
  requeueItemOf(worker: string, why: RequeueWhy): { id: string; state: 'queued' } | null;
  /** A read-only worker closed with its report: its item is done (its report is the work). */
  itemDoneBy(worker: string, note: string): { id: string; state: 'done' } | null;
  /** The project's daily budget: refused at or above it, warnings from 80 % (actors/usage/budget.ts). */
  budgetAllowsDispatch(p: Pick<DispatchParams, 'repo'>): string[];
  /** A new worker takes this id (before its dispatch): what an earlier, gone worker of the id spent is its project's, no longer the id's. */
  workBegan(worker: string): void;
}

export function crossRules(deps: { store: FleetStore; fleet: FleetHostApi; stores: WorkStores; home: string; log: (obj: Record<string, unknown>, msg: string) => void }): CrossRules {
  const { stores } = deps;
  const rules: CrossRules = {
    refuseIfParked(worker, verb, override) {
      const [open] = stores.decisions.openOf(worker);
      if (!open) return;
      throw new RefusedError('worker-parked', `worker ${worker} is parked on open decision ${open.key} (${quoteWorker(worker, open.question)}); it is never ${verb} while that is open. Answer it (hand decide ${open.key} "<answer>") or decline it (hand decide ${open.key} --declined "<why>")${override ? `, or ${override}` : ''}.`, { id: worker, decision: open.key });
    },

    async usageAllowsDispatch() {
      const usage = await readUsage(usageSourceFile(deps.home).get());
      if (usage.nearest && usage.nearest.percent >= REFUSE_AT) {
        throw new RefusedError('usage-limit', `refused: ${usageLine(usage)} is at or above ${REFUSE_AT} %; nothing was dispatched. Wait for the window to reset (hand usage).`, { percent: usage.nearest.percent, window: usage.nearest.window });
      }
      const warnings = usage.nearest ? [] : [`${usageLine(usage)}; dispatching anyway (fail open)`];
      // A worker that met its plan's limit is the freshest reading there is; it may be another
      // account's, so it warns and never refuses (hand usage shows it).
      const met = limitLine(limitsSeen(deps.fleet.views()));
      return met ? [...warnings, `${met}; a worker on the same account will meet it too`] : warnings;
    },

    itemForDispatch(p) {
      const itemId = p.item;
      const item = stores.backlog.get(itemId);
      if (item.state !== 'queued') throw new RefusedError('item-not-queued', `item ${itemId} is ${item.state}${item.worker ? ` (worker ${item.worker})` : ''}; only a queued item is dispatched. ${item.state === 'done' || item.state === 'dropped' ? `Reopen it first (hand backlog reopen ${itemId}).` : ''}`.trim(), { id: itemId, state: item.state });
      if (item.waitingOn.length) throw new RefusedError('item-blocked', `item ${itemId} is blocked by ${item.waitingOn.join(', ')}, not done yet; nothing was dispatched. Finish those first (hand backlog show ${itemId}).`, { id: itemId, blockedBy: item.waitingOn });
      if (item.hold) throw new RefusedError('item-held', `item ${itemId} is held (${item.hold.kind}: ${item.hold.reason}); release it first (hand backlog unhold ${itemId}).`, { id: itemId, hold: item.hold });
      if (stores.away.state().active) throw new RefusedError('away-holds-the-fleet', `away mode is on, so no queued item starts (the fleet is held; running workers go on). Turn it off first (hand afk off).`, { id: itemId });
      const project = deps.store.getProject(item.project);
      if (!project) throw new RefusedError('unknown-project', `item ${itemId} belongs to project ${item.project}, which is not registered; hand annex <repo> --name ${item.project} registers it.`, { id: itemId });
      const params: DispatchParams = { ...p, id: p.id || itemId, repo: p.repo || project.repo };
      if (p.brief) return { item, params, staged: null };
      // The item's own brief (or its title) becomes the brief file the worker reads first. It is an
      // input to dispatch, staged under items/<id>/ and taken away again if dispatch refuses.
      const dir = join(deps.home, 'items', itemId);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const body = item.brief ?? item.title;
      const brief = /^\s*##\s+Read first\s*$/m.test(body) ? body : `# ${item.title}\n\n## Read first\n\nNothing.\n\n## Task\n\n${body}\n`;
      const file = join(dir, 'brief.md');
      writeFileSync(file, brief, { mode: 0o600 });
      return { item, params: { ...params, brief: file }, staged: dir };
    },

    itemStarted(item, worker) {
      stores.backlog.linkWorker(item.id, worker);
      stores.backlog.start(item.id);
    },

    findingsAsDecisions(worker, err) {
      return findingsToDecisions(stores, worker, deps.store.getWorker(worker)?.project ?? null, err) ?? err;
    },

    withItemAndDecision(rows) {
      return rows.map((r) => {
        const id = r.id;
        const item = stores.backlog.itemOfWorker(id);
        const d = stores.decisions.latestOf(id);
        return { ...r, item: item?.id ?? null, decision: d ? { key: d.key, state: d.state, question: d.question, delivery: d.delivery } : null };
      });
    },

    /**
     * `discard --all-finished` without the parked: a worker with an open decision is left alone
     * and reported refused (naming its decision); each other finished worker goes through the
     * plain discard one at a time.
     */
    async discardAllButParked(discard, p) {
      const discarded: DiscardedWorker[] = [];
      const refused: { id: string; code: string; message: string }[] = [];
      for (const v of deps.fleet.views()) {
        if (!discardable(v)) continue;
        try {
          rules.refuseIfParked(v.id, 'discarded');
          discarded.push(await discard({ ...p, allFinished: false, id: v.id }));
        } catch (err) {
          refused.push({ id: v.id, code: err instanceof HandError ? err.code : 'failed', message: (err as Error).message });
        }
      }
      return { all: true, discarded, refused };
    },

    requeueItemOf: (worker, why) => requeueItemOf({ store: deps.store, stores, log: deps.log }, worker, why),
    itemDoneBy(worker, note) {
      const item = stores.backlog.itemOfWorker(worker);
      if (!item || (item.state !== 'in-flight' && item.state !== 'queued')) return null;
      stores.backlog.done(item.id, { note });
      deps.log({ worker, item: item.id }, 'backlog item done (read-only worker closed)');
      return { id: item.id, state: 'done' };
    },

    budgetAllowsDispatch(p) {
      return budgetAllowsDispatch(stores.sessions, projectOfRepo(deps.store, p.repo));
    },

    workBegan(worker) {
      // Only over a gone worker (dispatch refuses a live one); its session row stays: a session is
      // known by the launch it belongs to (session-keeper.ts), never by the id alone.
      const v = deps.fleet.view(worker);
      if (!v || v.condition === 'gone') stores.sessions.closeUsage(worker);
    },
  };
  return rules;
}

/**
 * `dispatch` under its rules, in the order a person is refused: the usage limit, then the item
 * (when one is named), then dispatch's own refusals; the item is started only once its worker
 * exists, and its staged brief is taken away again when dispatch refused.
 */
export async function dispatchUnderRules(rules: Pick<CrossRules, 'usageAllowsDispatch' | 'itemForDispatch' | 'itemStarted' | 'budgetAllowsDispatch' | 'workBegan'>, dispatch: (p: DispatchParams) => Promise<DispatchAnswer>, p: DispatchParams): Promise<DispatchResult> {
  const warnings = await rules.usageAllowsDispatch();
  // An agent that failed its calibration is a warning beside the usage's and the budget's (issue 39).
  const warned = (r: DispatchAnswer) => [...warnings, ...(r.calibration ? [r.calibration] : [])];
  const itemId = p.item;
  if (!itemId) {
    warnings.push(...rules.budgetAllowsDispatch(p));
    if (p.id) rules.workBegan(p.id);
    const r = await dispatch(p);
    return { ...r, warnings: warned(r) };
  }
  const { item, params, staged } = rules.itemForDispatch({ ...p, item: itemId });
  let r: DispatchAnswer;
  try {
    warnings.push(...rules.budgetAllowsDispatch(params));
    if (params.id) rules.workBegan(params.id);
    r = await dispatch(params);
  } catch (err) {
    if (staged) rmSync(staged, { recursive: true, force: true });
    throw err;
  }
  rules.itemStarted(item, r.id);
  return { ...r, item: item.id, warnings: warned(r) };
}
