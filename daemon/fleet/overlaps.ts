/**
 * Which live workers of one repository touch the same files (issue 40): the second of them to
 * land will find the base moved under a file it changed. Said while both still run, in `hand
 * status`, survey, the digest and the page, so the person can steer one of them, or land one and
 * rebase the other, before either is done.
 *
 * Read on demand (a status, a survey, a page load), never per screen event: two git calls per
 * worker, only for repositories with two or more live workers, each worker's answer kept for a
 * second so a page and a status in the same moment share it (an overlap shows up to a second late). A worker whose files git could
 * not read is left out of every overlap (could not tell is not "no overlap": its row says so).
 */
import type { WorkerViewLike } from '../../actors/fleet-api.ts';
import type { FleetStore } from '../../persistence/types.ts';
import type { Overlap, OverlapPair } from '../../contract/methods.ts';
import { onHost } from '../../io/git/git-place.ts';
import { touchedFiles, type Touched } from '../../io/git/touched-files.ts';
import type { PlaceOf } from '../gates/landing.ts';
import { worktreeMissing } from './worktree-presence.ts';

/** Files named per overlap: enough to recognise it; the count says how many there are. */
export const OVERLAP_FILES_SHOWN = 5;
/** A status, a survey and a page load in the same second share one answer; a file written now shows within it. */
export const OVERLAP_TTL_MS = 1000;

export interface OverlapReader {
  /**
   * Each live worker's overlaps with the others of its repository (workers with none are absent);
   * with `focus`, only the repository of that worker is asked.
   */
  of(views: readonly WorkerViewLike[], focus?: string): Promise<Map<string, Overlap[]>>;
}

/** Pairs once each (a before b by id), for survey and the digest. */
export function overlapPairs(byWorker: Map<string, Overlap[]>): OverlapPair[] {
  const out: OverlapPair[] = [];
  for (const [id, list] of byWorker) for (const o of list) if (id < o.with) out.push({ workers: [id, o.with], files: o.files, count: o.count });
  return out.sort((a, b) => a.workers.join().localeCompare(b.workers.join()));
}

/** Who may still change its branch: a state that owns a worktree, not final, the directory there. */
const isCandidate = (v: WorkerViewLike) => v.condition !== 'gone' && !v.marks.includes('no-worktree') && !worktreeMissing(v);

export function createOverlapReader(deps: { store: Pick<FleetStore, 'getWorker'>; placeOf?: PlaceOf; now?: () => number }): OverlapReader {
  const now = deps.now ?? Date.now;
  const cache = new Map<string, { at: number; touched: Promise<Touched | null> }>();

  function touchedOf(v: WorkerViewLike): Promise<Touched | null> {
    const hit = cache.get(v.id);
    if (hit && now() - hit.at < OVERLAP_TTL_MS) return hit.touched;
    const touched = onHost(deps.placeOf?.(v) ?? null, () => touchedFiles(v.worktree, v.base)).catch(() => null);
    cache.set(v.id, { at: now(), touched });
    return touched;
  }

  return {
    async of(views, focus) {
      const groups = new Map<string, WorkerViewLike[]>();
      for (const v of views) {
        if (!isCandidate(v)) continue;
        const repo = deps.store.getWorker(v.id)?.repo;
        if (!repo) continue;
        const key = `${v.host}\0${repo}`;
        groups.set(key, [...(groups.get(key) ?? []), v]);
      }
      // Forget workers that are gone from the fleet (landed, discarded): the cache stays small.
      const known = new Set(views.map((v) => v.id));
      for (const id of cache.keys()) if (!known.has(id)) cache.delete(id);
      const result = new Map<string, Overlap[]>();
      for (const members of groups.values()) {
        if (members.length < 2 || (focus !== undefined && !members.some((v) => v.id === focus))) continue;
        const touched = await Promise.all(members.map(async (v) => ({ id: v.id, t: await touchedOf(v) })));
        for (let i = 0; i < touched.length; i++) {
          for (let j = i + 1; j < touched.length; j++) {
            const a = touched[i]!;
            const b = touched[j]!;
            if (!a.t || !b.t) continue;
            const other = new Set(b.t.files);
            const shared = a.t.files.filter((f) => other.has(f));
            if (shared.length === 0) continue;
            const files = shared.slice(0, OVERLAP_FILES_SHOWN);
            result.set(a.id, [...(result.get(a.id) ?? []), { with: b.id, files, count: shared.length }]);
            result.set(b.id, [...(result.get(b.id) ?? []), { with: a.id, files, count: shared.length }]);
          }
        }
      }
      return result;
    },
  };
}
