/**
 * Which live workers of one repository touch the same files (issue 40): the second of them to
 * land will find the base moved under a file it changed. Said while both still run, in `hand
 * status`, survey, the digest and the page, so the person can steer one of them, or land one and
 * rebase the other, before either is done.
 *
 * Read on demand (a status, a survey, a page load), never per screen event: two git calls per
 * worker, only for repositories with two or more live workers, each worker's answer kept for a
 * second so a page and a status in the same moment share it (an overlap shows up to a second late). A worker whose files git could
 * not read is left out of every overlap. A status waits for the reads a bounded time (not at all
 * when the reads ahead of it, at the pace they have been going, would outlast it): past it, each
 * worker's previous answer stands in while the new read runs, and a repository with a worker never
 * read yet (a fleet just restarted, hundreds of workers) is answered without, each of its rows
 * saying so (`overlapsUnread`), never as "no overlap".
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
/**
 * Worktrees read at once. Each read is two git processes, and starting a process blocks the
 * daemon's one thread while it forks (a few ms, more as the daemon grows): 500 workers of one
 * repository read all at once held the first status after a restart for 3.8 s.
 */
export const OVERLAP_READS_AT_ONCE = 4;
/**
 * What one worktree's read is taken to cost before any was timed (two git processes): with it, a
 * bounded ask judges whether the reads ahead of it can end within its bound at all.
 */
export const READ_MS_PRIOR = 50;

export interface OverlapReading {
  /** Each live worker's overlaps with the others of its repository (workers with none are absent). */
  byWorker: Map<string, Overlap[]>;
  /**
   * Workers whose repository's files were still being read when `waitMs` ran out: an overlap of
   * theirs may exist that is not said yet (the reads go on; a later ask has them).
   */
  unread: Set<string>;
}

export interface OverlapReader {
  /**
   * The overlaps of every live worker; with `focus`, only the repository of that worker is asked.
   * With `waitMs`, a repository whose reads take longer is left out and named in `unread`.
   */
  of(views: readonly WorkerViewLike[], focus?: string, waitMs?: number): Promise<OverlapReading>;
}

/** Pairs once each (a before b by id), for survey and the digest. */
export function overlapPairs(byWorker: Map<string, Overlap[]>): OverlapPair[] {
  const out: OverlapPair[] = [];
  for (const [id, list] of byWorker) for (const o of list) if (id < o.with) out.push({ workers: [id, o.with], files: o.files, count: o.count });
  return out.sort((a, b) => a.workers.join().localeCompare(b.workers.join()));
}

/** Who may still change its branch: a state that owns a worktree, not final, the directory there. */
const isCandidate = (v: WorkerViewLike) => v.condition !== 'gone' && !v.marks.includes('no-worktree') && !worktreeMissing(v);

export function createOverlapReader(deps: {
  store: Pick<FleetStore, 'workerRepos'>;
  placeOf?: PlaceOf;
  now?: () => number;
  /** One worker's touched files (default: git in its worktree, on its host). */
  read?: (v: WorkerViewLike) => Promise<Touched | null>;
}): OverlapReader {
  const now = deps.now ?? Date.now;
  const read = deps.read ?? ((v: WorkerViewLike) => onHost(deps.placeOf?.(v) ?? null, () => touchedFiles(v.worktree, v.base)));
  // Per worker: its newest read, when it ended (`at`, null while it runs: an answer is fresh for
  // OVERLAP_TTL_MS after it), and the last answer read to the end (`last`: what a bounded ask
  // says while a newer read runs).
  interface Entry { at: number | null; touched: Promise<Touched | null>; last?: { t: Touched | null } }
  const cache = new Map<string, Entry>();
  const queue: Array<() => void> = [];
  let reading = 0;
  // How long a read takes here, smoothed over the last few (the machine's speed and load).
  let readMs = READ_MS_PRIOR;
  const nextRead = () => {
    if (reading >= OVERLAP_READS_AT_ONCE) return;
    const start = queue.shift();
    if (start) start();
  };

  function touchedOf(v: WorkerViewLike): Promise<Touched | null> {
    const hit = cache.get(v.id);
    if (hit && (hit.at === null || now() - hit.at < OVERLAP_TTL_MS)) return hit.touched;
    const entry = { at: null, last: hit?.last } as Entry;
    entry.touched = new Promise<Touched | null>((resolve) => {
      queue.push(() => {
        reading++;
        const began = performance.now();
        void read(v).catch(() => null).then((t) => {
          reading--;
          readMs += (performance.now() - began - readMs) / 4;
          entry.at = now();
          entry.last = { t };
          resolve(t);
          nextRead();
        });
      });
      nextRead();
    });
    cache.set(v.id, entry);
    return entry.touched;
  }

  return {
    async of(views, focus, waitMs) {
      const groups = new Map<string, WorkerViewLike[]>();
      // One read for every worker's repository (one a worker was ~30 ms of a first status of 500).
      const repos = deps.store.workerRepos();
      for (const v of views) {
        if (!isCandidate(v)) continue;
        const repo = repos.get(v.id);
        if (!repo) continue;
        const key = `${v.host}\0${repo}`;
        const group = groups.get(key);
        if (group) group.push(v);
        else groups.set(key, [v]);
      }
      // Forget workers that are gone from the fleet (landed, discarded): the cache stays small.
      const known = new Set(views.map((v) => v.id));
      for (const id of cache.keys()) if (!known.has(id)) cache.delete(id);
      const result = new Map<string, Overlap[]>();
      const unread = new Set<string>();
      const asked = [...groups.values()].filter((members) => members.length >= 2 && (focus === undefined || members.some((v) => v.id === focus)));
      // Every read is queued before any is awaited: the wait bounds them all together.
      const reads = asked.map((members) => Promise.all(members.map(async (v) => ({ id: v.id, t: await touchedOf(v) }))));
      let timer: NodeJS.Timeout | undefined;
      // Reads that cannot end within the bound are not waited for at all: a fleet just restarted
      // with hundreds of workers to read would hold every status the whole bound, for nothing.
      const roundsAhead = Math.ceil((reading + queue.length) / OVERLAP_READS_AT_ONCE);
      const hopeless = waitMs !== undefined && roundsAhead * readMs > waitMs;
      const outOfTime = waitMs === undefined ? null : hopeless ? Promise.resolve(null) : new Promise<null>((r) => (timer = setTimeout(() => r(null), waitMs)));
      for (let g = 0; g < asked.length; g++) {
        let touched = outOfTime ? await Promise.race([reads[g]!, outOfTime]) : await reads[g]!;
        // Out of time: the answers read before (a second or so old) stand in while the new reads
        // run; a repository with a worker never read yet (a restart, a new worker) is unread.
        if (touched === null) {
          const before = asked[g]!.map((v) => ({ id: v.id, last: cache.get(v.id)?.last }));
          if (before.every((b) => b.last)) touched = before.map((b) => ({ id: b.id, t: b.last!.t }));
        }
        if (touched === null) {
          for (const v of asked[g]!) unread.add(v.id);
          continue;
        }
        // Each worker's files as a set once, not once per pair (hundreds of workers make tens of thousands of pairs).
        const sets = touched.map((x) => (x.t ? new Set(x.t.files) : null));
        for (let i = 0; i < touched.length; i++) {
          for (let j = i + 1; j < touched.length; j++) {
            const a = touched[i]!;
            const b = touched[j]!;
            const other = sets[j];
            if (!a.t || !other) continue;
            const shared = a.t.files.filter((f) => other.has(f));
            if (shared.length === 0) continue;
            const files = shared.slice(0, OVERLAP_FILES_SHOWN);
            result.set(a.id, [...(result.get(a.id) ?? []), { with: b.id, files, count: shared.length }]);
            result.set(b.id, [...(result.get(b.id) ?? []), { with: a.id, files, count: shared.length }]);
          }
        }
      }
      clearTimeout(timer);
      return { byWorker: result, unread };
    },
  };
}
