/**
 * At every settle (a worker's label becomes settled or done), the base branch of its local-only
 * project is compared with the recorded tip (base-watch.ts). A move no landing made is told to
 * the person once per tip: a journal row (`hand journal`), a notification to every target, and
 * the daemon log. The worker is the likeliest mover (a settle follows its turn), but kingshand
 * cannot prove it, so the words say "outside a landing", never "by <worker>".
 *
 * One check waits per base (a repository's branch, on its host): a settle whose base already has
 * a check waiting adds none, since that check, not yet begun, reads the tip after both settles.
 * After a restart every restored worker's first view is a settle here (a move made while no daemon
 * watched is caught so): 500 workers of one repository asked git 500 times, one after another,
 * through the first seconds of a resume (issue 46); now once.
 */
import type { FleetHostApi, WorkerViewLike } from '../../actors/fleet-api.ts';
import type { FleetStore, WorkerRow } from '../../persistence/types.ts';
import type { WorkStores } from '../../persistence/work/index.ts';
import type { BaseTips } from '../../persistence/base-tips.ts';
import type { Notifier } from '../../actors/notify/notifier.ts';
import { labelOf } from '../../actors/notify/conditions.ts';
import { baseMove, baseMoveText, markTold } from './base-watch.ts';
import { onHost } from '../../io/git/git-place.ts';
import type { PlaceOf } from '../gates/landing.ts';
import type { BaseNotices } from './base-notices.ts';

export interface BaseSettleWatchDeps {
  store: FleetStore;
  fleet: FleetHostApi;
  stores: WorkStores;
  notifier: Notifier;
  baseTips: BaseTips;
  /** Where a worker's git runs (landing.ts PlaceOf); absent: here. */
  placeOf?: PlaceOf;
  /** The Hand's wake hears each move too (base-notices.ts). */
  notices?: BaseNotices;
  log: (obj: Record<string, unknown>, msg: string) => void;
}

export function startBaseSettleWatch(deps: BaseSettleWatchDeps): { stop(): void; settled(): Promise<void> } {
  const last = new Map<string, string>();
  // One check at a time: two workers of one repository settling together tell one move once.
  let chain: Promise<void> = Promise.resolve();
  // The bases with a check queued and not yet begun.
  const waiting = new Set<string>();
  const check = async (v: WorkerViewLike, row: WorkerRow) => {
    const project = deps.store.getProject(row.project);
    if (!project || project.posture !== 'local-only') return;
    // A far worker's base is compared on its host (its git runs there, its tip is recorded there).
    const move = await onHost(deps.placeOf?.(row) ?? null, () => baseMove(deps.baseTips, row.repo, row.base));
    if (!move || move.told) return;
    markTold(deps.baseTips, move);
    const text = baseMoveText(move, project.name);
    const command = `hand project set ${project.name} --accept-base`;
    deps.notices?.add({ repo: move.key, branch: move.branch, to: move.to, worker: v.id, project: project.name, text, command, at: Date.now() });
    deps.stores.away.append({ kind: 'base-moved', text, worker: v.id, project: project.name });
    deps.notifier.notify(`base-moved:${move.key}:${move.branch}:${move.to}`, {
      worker: v.id, project: project.name, condition: 'base-moved', reason: text, question: null, lastLine: null,
      command, at: new Date().toISOString(),
    });
    deps.log({ worker: v.id, repo: move.repo, branch: move.branch, from: move.from, to: move.to }, 'base moved outside a landing');
  };
  const consider = (v: WorkerViewLike) => {
    const label = labelOf(v);
    if (last.get(v.id) === label) return;
    last.set(v.id, label);
    if (label !== 'settled' && label !== 'done') return;
    const row = deps.store.getWorker(v.id);
    if (!row) return;
    const base = `${row.host ?? 'local'}\0${row.repo}\0${row.base}`;
    if (waiting.has(base)) return;
    waiting.add(base);
    chain = chain
      .then(() => {
        waiting.delete(base);
        return check(v, row);
      })
      .catch((err) => deps.log({ worker: v.id, err: String(err) }, 'base check failed'));
  };
  const unsubscribe = deps.fleet.subscribe(consider);
  return { stop: unsubscribe, settled: () => chain };
}
