/**
 * `hand discard <id>`: gives up a finished worker (stopped, gone, lost, rejected or failed) and
 * frees its id. Every check happens before anything changes, so a refusal leaves the worker,
 * pane, worktree, branch, brief and report exactly as they were:
 *   - the agent must not be running (a live pane refuses: stop it first);
 *   - the worktree must hold no uncommitted files (named in the refusal) — never forced;
 *   - --delete-branch refuses when the branch has commits on no other branch or remote, unless
 *     --discard-commits confirms that those commits may be lost.
 * Then: `git worktree remove` (never --force) + prune → close the pane → free the id → delete the
 * branch if asked → move the brief directory (brief, report) to <state>/archive/<id>-<time>/, so
 * the next worker of that id starts without an old report. The journal keeps the worker's history.
 */
import type { DiscardedWorker } from '../../contract/methods.ts';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { briefCopyPathOf } from '../../io/brief/worker-layout.ts';
import { deliveryPathOf } from './review-gate.ts';
import { dirname, join } from 'node:path';
import { RefusedError } from '../../contract/errors.ts';
import { removeWorktree } from '../../io/git/worktree-remove.ts';
import { pathThere } from '../../io/git/git-place.ts';
import { branchExists, deleteBranch, uncommittedFiles, unmergedCommits } from '../../io/git/discard-checks.ts';
import type { FleetStore } from '../../persistence/types.ts';
import type { FleetHostApi, WorkerViewLike } from '../../actors/fleet-api.ts';

/** The stages a worker can be discarded from ('landed' is torn down by its landing). */
/** Stopped, exited, lost, rejected or failed: gone, and not landed (a landed worker is cleaned up already). */
export const discardable = (v: WorkerViewLike): boolean => v.condition === 'gone' && !v.marks.includes('landed');

export interface DiscardOptions {
  deleteBranch?: boolean;
  /** Confirms deleting a branch whose commits are on no other branch or remote. */
  discardCommits?: boolean;
  /**
   * Drops the worker's record without removing its worktree: the way out when git cannot remove
   * it (immutable, read-only, a repository moved away). What stays on disk is named in the result.
   */
  forget?: boolean;
}

export interface DiscardDeps {
  store: FleetStore;
  fleet: FleetHostApi;
  /** <state>/workers: the brief directories live below it; the archive goes beside it. */
  workersDir: string;
  now?: () => number;
}

/** One discarded worker, as the wire shows it (contract/methods/gates.ts). */
export type DiscardResult = Omit<DiscardedWorker, 'item'>;


export function archiveDirOf(workersDir: string): string {
  return join(dirname(workersDir), 'archive');
}

/** Every refusal, before anything is touched. */
async function checkDiscard(v: WorkerViewLike, repo: string, o: DiscardOptions): Promise<void> {
  if (!discardable(v)) {
    throw new RefusedError('worker-not-finished', `worker ${v.id} is ${v.stage}; only a stopped, gone, lost, rejected or failed worker can be discarded. Stop it first: hand stop ${v.id}`, {
      id: v.id,
      stage: v.stage,
    });
  }
  if (v.live === true) {
    throw new RefusedError('worker-still-running', `worker ${v.id}'s agent is still running in its pane; stop it first: hand stop ${v.id}`, { id: v.id });
  }
  if (o.forget) return; // the worktree is left as it is: nothing of it is read or removed
  // Where git runs (git-place.ts): a far worker's repository is on its host.
  if (!(await pathThere(repo))) throw repositoryMissing(v, repo);
  const dirty = await uncommittedFiles(v.worktree).catch((err: unknown) => {
    throw stuckWorktree(v, err);
  });
  if (dirty.length > 0) {
    throw new RefusedError(
      'worktree-has-uncommitted-files',
      `worker ${v.id}'s worktree ${v.worktree} holds uncommitted files: ${dirty.join(', ')}. Commit them on ${v.branch} or remove them yourself; discard never forces. Nothing was changed.`,
      { id: v.id, files: dirty },
    );
  }
  if (o.deleteBranch && (await branchExists(repo, v.branch))) {
    const lost = await unmergedCommits(repo, v.branch);
    if (lost.length > 0 && !o.discardCommits) {
      throw new RefusedError(
        'branch-has-unmerged-commits',
        `branch ${v.branch} has ${lost.length} commit(s) on no other branch or remote (${lost.slice(0, 5).join('; ')}${lost.length > 5 ? '; …' : ''}); deleting it would lose them. ` +
          `Keep the branch (drop --delete-branch), or confirm with --discard-commits. Nothing was changed.`,
        { id: v.id, branch: v.branch, commits: lost },
      );
    }
  }
}

/**
 * The repository is not where it was registered (moved or removed, issue 25 #4): its worker's
 * worktree went with it. Before, the missing worktree read as "absent" and the record was dropped,
 * orphaning the worktree wherever the repository went. Now nothing changes until it is back.
 */
export function repositoryMissing(v: WorkerViewLike, repo: string): RefusedError {
  return new RefusedError(
    'repository-missing',
    `worker ${v.id}'s repository ${repo} is not there any more (moved or removed), and its worktree ${v.worktree} and branch ${v.branch} went with it. Nothing was changed. ` +
      `Way out: move the repository back to ${repo} and run \`hand discard ${v.id}\` again; ` +
      `or \`hand discard ${v.id} --forget\` to drop the worker's record and remove its worktree yourself where the repository is now (\`git worktree remove .claude/worktrees/${v.id}\` there, then \`git worktree prune\`).`,
    { id: v.id, repo, worktree: v.worktree, branch: v.branch },
  );
}

/**
 * A worktree git cannot read or remove (immutable, read-only, its admin entry dropped by a failed
 * remove): the exact state and the way out, never only "could not tell" (issue 25 #4).
 */
export function stuckWorktree(v: WorkerViewLike, err: unknown): RefusedError {
  const said = err instanceof Error ? err.message : String(err);
  return new RefusedError(
    'worktree-stuck',
    `worker ${v.id}'s worktree ${v.worktree} cannot be removed through git: ${said} ` +
      `State: the directory ${existsSync(v.worktree) ? 'is still on disk' : 'is gone'}; branch ${v.branch} is kept. ` +
      `Way out: make it removable (\`lsattr -d ${v.worktree}\`; \`chattr -R -i ${v.worktree}\` or restore write permission on it and its parent), then \`git worktree prune\` in the repository and \`hand discard ${v.id}\` again; ` +
      `or \`hand discard ${v.id} --forget\` to drop the worker's record and leave ${v.worktree} and branch ${v.branch} on disk for you to remove.`,
    { id: v.id, worktree: v.worktree, branch: v.branch, cause: said },
  );
}

export async function discardWorker(id: string, o: DiscardOptions, deps: DiscardDeps): Promise<DiscardResult> {
  const v = deps.fleet.view(id);
  if (!v) throw new RefusedError('unknown-worker', `no worker named ${JSON.stringify(id)}. \`hand status\` lists the workers.`, { id });
  const row = deps.store.getWorker(id);
  const repo = row?.repo ?? dirname(dirname(dirname(v.worktree)));
  await checkDiscard(v, repo, o);

  let worktree: DiscardResult['worktree'] = 'absent';
  if (o.forget) worktree = (await pathThere(v.worktree)) ? 'left-on-disk' : 'absent';
  else if (await pathThere(v.worktree)) {
    worktree = await removeWorktree({ repo, worktree: v.worktree }).catch((err: unknown) => {
      throw stuckWorktree(v, err);
    });
  }
  const { paneClosed } = await deps.fleet.release(id);
  let branch: DiscardResult['branch'] = 'absent';
  if (await branchExists(repo, v.branch)) {
    if (o.deleteBranch) {
      await deleteBranch(repo, v.branch);
      branch = 'deleted';
    } else branch = 'kept';
  }
  const briefDir = dirname(v.briefPath);
  let archivedTo: string | null = null;
  if (existsSync(briefDir)) {
    const archive = archiveDirOf(deps.workersDir);
    mkdirSync(archive, { recursive: true, mode: 0o700 });
    archivedTo = join(archive, `${id}-${new Date((deps.now ?? Date.now)()).toISOString().replace(/[:.]/g, '-')}`);
    renameSync(briefDir, archivedTo);
    // The daemon's own copies (the brief as dispatched, how it ships) go with it: a later worker of this id starts without them.
    for (const [from, name] of [[briefCopyPathOf(v.briefPath), 'brief-as-dispatched.md'], [deliveryPathOf(v.briefPath), 'delivery-as-dispatched.json']] as const) {
      if (existsSync(from)) renameSync(from, join(archivedTo, name));
    }
  }
  deps.store.commit({
    snapshotVersion: 0,
    journal: [{ actorId: `worker:${id}`, event: { type: 'DISCARDED', worktree, pane: paneClosed ? 'closed' : 'none', branch, archivedTo }, from: v.stage, to: 'discarded', at: (deps.now ?? Date.now)() }],
  });
  const leftBehind = worktree === 'left-on-disk' ? [v.worktree] : undefined;
  return { id, stage: v.stage, worktree, pane: paneClosed ? 'closed' : 'none', branch, branchName: v.branch, archivedTo, ...(leftBehind ? { leftBehind } : {}) };
}
