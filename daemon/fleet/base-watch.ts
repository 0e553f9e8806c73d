/**
 * Detection behind the base guard (issue 24 item 3): the hook (io/git/base-guard.ts) stops a
 * worker's plain git, not a worker that unsets its environment or writes the ref file. So the
 * base branch's tip is compared with the one kingshand recorded (persistence/base-tips.ts) at
 * every settle of a worker and at land: a move no landing made is told to the person once
 * (journal, notification, log), and `hand land` refuses while it stands. kingshand cannot tell a
 * person's own `git pull` from a worker's move, so the person says which: `hand project set
 * <name> --accept-base` records the tip as theirs.
 */
import { RefusedError } from '../../contract/errors.ts';
import { landingTarget } from '../../io/git/index.ts';
import { runGit } from '../../io/git/run-git.ts';
import { farTarget } from '../../io/git/git-place.ts';
import type { BaseTips, TipSource } from '../../persistence/base-tips.ts';

export interface BaseMove {
  repo: string;
  /** The record's key: the repository's path here, or its host and path for a far one (tipKey). */
  key: string;
  branch: string;
  from: string;
  to: string;
  /** `git log --oneline from..to`, at most 10 lines (empty when `to` is behind or beside `from`). */
  commits: string[];
  /** The person was already told about this very tip. */
  told: boolean;
}

/**
 * The key a repository's tips are recorded under: its path here, or — where git runs on a far
 * host (git-place.ts) — that host and the path, so a far checkout never shares a record with a
 * local one at the same path. Called inside the worker's onHost, as every git call here is.
 */
export function tipKey(repo: string): string {
  const far = farTarget();
  return far ? `ssh://${far.user}@${far.address}:${far.port}${repo}` : repo;
}

async function tipOf(repo: string, branch: string): Promise<string | null> {
  const r = await runGit(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `refs/heads/${branch}^{commit}`]);
  return r.exitCode === 0 ? r.stdout.trim() : null;
}

/** Records the tip of `base`'s local branch when none is recorded (a dispatch); returns the branch. */
export async function recordBaseIfNew(tips: BaseTips, repo: string, base: string, now: number): Promise<string | null> {
  const branch = landingTarget(base);
  if (tips.get(tipKey(repo), branch)) return branch;
  const sha = await tipOf(repo, branch);
  if (sha) tips.set(tipKey(repo), branch, { sha, by: 'dispatch', at: now });
  return sha ? branch : null;
}

export async function recordBase(tips: BaseTips, repo: string, base: string, by: TipSource, now: number): Promise<string | null> {
  const branch = landingTarget(base);
  const sha = await tipOf(repo, branch);
  if (sha) tips.set(tipKey(repo), branch, { sha, by, at: now });
  return sha;
}

/** Null when the base is where kingshand recorded it (or nothing is recorded, or it has no local branch). */
export async function baseMove(tips: BaseTips, repo: string, base: string): Promise<BaseMove | null> {
  const branch = landingTarget(base);
  const key = tipKey(repo);
  const rec = tips.get(key, branch);
  if (!rec) return null;
  const to = await tipOf(repo, branch);
  if (!to || to === rec.sha) return null;
  const log = await runGit(repo, ['log', '--oneline', '--no-decorate', '-n', '10', `${rec.sha}..${to}`]);
  const commits = log.exitCode === 0 ? log.stdout.trim().split('\n').filter(Boolean) : [];
  return { repo, key, branch, from: rec.sha, to, commits, told: rec.toldTo === to };
}

/** The tip a landing left (`by: 'landing'`), under the key of where git runs now. */
export function recordLanded(tips: BaseTips, repo: string, branch: string, sha: string, now: number): void {
  tips.set(tipKey(repo), branch, { sha, by: 'landing', at: now });
}

export function markTold(tips: BaseTips, move: BaseMove): void {
  const rec = tips.get(move.key, move.branch);
  if (rec) tips.set(move.key, move.branch, { ...rec, toldTo: move.to });
}

/** One line for the person: what moved, from where to where, and the way out. */
export function baseMoveText(m: BaseMove, project: string): string {
  const short = (s: string) => s.slice(0, 12);
  const what = m.commits.length ? ` (${m.commits.length === 10 ? 'the last 10 of its' : 'its'} commits: ${m.commits.join('; ')})` : '';
  return (
    `${m.branch} of ${project} moved from ${short(m.from)} to ${short(m.to)} outside a landing${what}. ` +
    `Only hand land and your approval move it; a worker may have moved it itself. If you moved it, say so with ` +
    `hand project set ${project} --accept-base; if not, put it back with git -C ${m.repo} update-ref refs/heads/${m.branch} ${m.from} ${m.to}.`
  );
}

export function baseMovedRefusal(m: BaseMove, project: string, worker: string): RefusedError {
  return new RefusedError('base-moved-outside-a-landing', `refused to land ${worker}: ${baseMoveText(m, project)} Nothing was landed.`, {
    id: worker, branch: m.branch, from: m.from, to: m.to, commits: m.commits,
  });
}
