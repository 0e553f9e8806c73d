/**
 * What the person decides on for one worker, each with its id (issue 40): the brief's
 * requirements (R-), browser checks (C-) and open questions (Q-) — read from the daemon's copy of
 * the brief as dispatched, never the worker's brief.md — and the files its branch changes (F-),
 * once it has commits. The page renders these with an annotation form each; `annotate` accepts
 * only an id this answers (or `general`), so a note is always about something the person saw.
 */
import { readBriefAsDispatched } from '../../io/brief/brief-copy.ts';
import { briefItems } from '../../io/brief/brief-items.ts';
import { changedFiles } from '../../io/git/changed-files.ts';
import { ITEM_KINDS, type ReviewItem } from '../../contract/methods/annotations.ts';

export interface ItemsPlace {
  briefPath: string;
  repo: string;
  base: string;
  branch: string;
  /** A worker on another machine: its repository is there, so its files are not listed here. */
  host?: string | null;
}

export interface ReviewItems {
  items: ReviewItem[];
  /** More changed files than the page lists by id. */
  filesCapped: boolean;
  /** Why the brief's items could not be read (null: read). */
  briefError: string | null;
}

export async function reviewItemsOf(w: ItemsPlace): Promise<ReviewItems> {
  const [brief, files] = await Promise.all([
    readBriefAsDispatched(w.briefPath),
    // Before its first commit (or before its worktree exists, at the brief gate) a branch changes nothing.
    w.host && w.host !== 'local' ? Promise.resolve(null) : changedFiles(w.repo, w.base, `refs/heads/${w.branch}`).catch(() => null),
  ]);
  const fromBrief = 'error' in brief ? [] : briefItems(brief.text).map((i): ReviewItem => ({ id: i.id, kind: ITEM_KINDS[i.letter], text: i.text }));
  const fileItems = (files?.files ?? []).map((f, i): ReviewItem => ({ id: `F-${String(i + 1).padStart(3, '0')}`, kind: ITEM_KINDS.F, text: f }));
  const order = ['R', 'C', 'Q', 'F'];
  const items = [...fromBrief, ...fileItems].sort((a, b) => order.indexOf(a.id[0]!) - order.indexOf(b.id[0]!));
  return { items, filesCapped: files?.capped ?? false, briefError: 'error' in brief ? brief.error : null };
}
