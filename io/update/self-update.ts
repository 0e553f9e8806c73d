/**
 * `hand update`: move this kingshand checkout to its newest release, only when nothing can be lost
 * (workflow §8.5). Every refusal is an answer, never a throw, and touches nothing:
 *   - the checkout is not a git work tree, or its version cannot be read;
 *   - it has uncommitted changes (up to five named);
 *   - a worker is live (or the fleet could not be asked: could not tell refuses too);
 *   - it is not on `main` (a detached HEAD is named as such);
 *   - it has no `origin`, the fetch of its tags fails, or no release (`vX.Y.Z`) is tagged.
 * The newest tag already in HEAD's history is `already-current` (never a downgrade). Otherwise the
 * change list is taken, `git merge --ff-only <tag>` moves the branch (a divergence refuses with
 * git's words), and the install step runs (`npm ci`, `npm run build`). Never a tag made or pushed,
 * never a branch head, never a force, a stash, a reset or a rebase; git-ignored state is untouched.
 * `rereadNeeded`: the update changed the Hand's kit (hand/kit/), so the workspace's kit is
 * rewritten (`hand init`) and a running Hand session should read CLAUDE.md again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from '../git/run-git.ts';

export const RELEASE_TAG = /^v(\d+)\.(\d+)\.(\d+)$/;

export interface UpdateResult {
  root: string;
  status: 'updated' | 'already-current' | 'refused';
  ok: boolean;
  /** Why it was refused (null otherwise). */
  reason: string | null;
  fromVersion: string | null;
  toVersion: string | null;
  tag: string | null;
  fromCommit: string | null;
  toCommit: string | null;
  /** Subjects of the commits the update brought, oldest first. */
  changes: string[];
  installOk: boolean | null;
  installError: string | null;
  rereadNeeded: boolean;
}

export interface UpdateDeps {
  /** Ids of live workers; null when the fleet could not be asked (that refuses: could not tell). */
  liveWorkers(): Promise<string[] | null>;
  /** Builds the new checkout (npm ci, npm run build); its error text when it failed. */
  install(root: string): Promise<{ ok: true } | { ok: false; error: string }>;
  /** Rewrites the Hand's kit after the kit changed (hand init on the recorded workspace). */
  refreshKit?(root: string): Promise<{ ok: true } | { ok: false; error: string }>;
}

const git = async (root: string, args: string[]) => runGit(root, args);
const firstLine = (s: string) => s.trim().split('\n')[0] ?? '';

function versionAt(text: string): string | null {
  try {
    const v = (JSON.parse(text) as { version?: unknown }).version;
    return typeof v === 'string' && v ? v : null;
  } catch {
    return null;
  }
}

function byVersion(a: string, b: string): number {
  const pa = RELEASE_TAG.exec(a)!.slice(1).map(Number);
  const pb = RELEASE_TAG.exec(b)!.slice(1).map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pb[i]! - pa[i]!;
  return 0;
}

export async function selfUpdate(root: string, deps: UpdateDeps): Promise<UpdateResult> {
  const result: UpdateResult = {
    root, status: 'refused', ok: false, reason: null, fromVersion: null, toVersion: null, tag: null,
    fromCommit: null, toCommit: null, changes: [], installOk: null, installError: null, rereadNeeded: false,
  };
  const refuse = (reason: string): UpdateResult => ({ ...result, status: 'refused', ok: false, reason: `${reason}; nothing was changed.` });

  const top = await git(root, ['rev-parse', '--show-toplevel']);
  if (top.exitCode !== 0) return refuse(`${root} is not a git checkout of kingshand (${firstLine(top.stderr || top.spawnError || '')})`);
  try {
    result.fromVersion = versionAt(readFileSync(join(root, 'package.json'), 'utf8'));
  } catch {
    result.fromVersion = null;
  }
  if (!result.fromVersion) return refuse(`the version of ${root} cannot be read (package.json has no version)`);
  const head = await git(root, ['rev-parse', 'HEAD']);
  result.fromCommit = head.stdout.trim() || null;

  const dirty = await git(root, ['status', '--porcelain=v1', '--untracked-files=normal']);
  if (dirty.exitCode !== 0) return refuse(`could not tell whether ${root} has uncommitted changes (${firstLine(dirty.stderr)})`);
  const changed = dirty.stdout.split('\n').filter((l) => l.trim() !== '').map((l) => l.slice(3));
  if (changed.length) {
    return refuse(`${root} has uncommitted changes (${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ` and ${changed.length - 5} more` : ''}): commit or remove them first, an update never stashes or overwrites them`);
  }

  const live = await deps.liveWorkers();
  if (live === null) return refuse('could not tell whether a worker is live (the daemon did not answer): an update restarts nothing under a running worker');
  if (live.length) return refuse(`${live.length} worker${live.length === 1 ? ' is' : 's are'} live (${live.slice(0, 5).join(', ')}): let them finish, or stop them (hand stop <id>), then update`);

  const branch = await git(root, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  if (branch.exitCode !== 0) return refuse(`${root} is on a detached HEAD (${(result.fromCommit ?? '').slice(0, 10)}), not on main: check out main first`);
  if (branch.stdout.trim() !== 'main') return refuse(`${root} is on branch ${branch.stdout.trim()}, not main: releases are taken onto main only`);

  const origin = await git(root, ['remote', 'get-url', 'origin']);
  if (origin.exitCode !== 0) return refuse(`${root} has no origin remote to take releases from`);
  const fetched = await git(root, ['fetch', '--quiet', '--tags', 'origin']);
  if (fetched.exitCode !== 0) return refuse(`git fetch --tags origin failed: ${firstLine(fetched.stderr || fetched.spawnError || '')}`);
  const tags = (await git(root, ['tag', '--list', 'v*'])).stdout.split('\n').map((t) => t.trim()).filter((t) => RELEASE_TAG.test(t)).sort(byVersion);
  const tag = tags[0];
  if (!tag) return refuse('no release has been tagged (vX.Y.Z) on origin');
  result.tag = tag;
  const target = (await git(root, ['rev-parse', `refs/tags/${tag}^{commit}`])).stdout.trim();
  result.toCommit = target || null;
  const inHead = await git(root, ['merge-base', '--is-ancestor', target, 'HEAD']);
  if (inHead.exitCode === 0) return { ...result, status: 'already-current', ok: true, toVersion: result.fromVersion, toCommit: result.fromCommit };

  const shown = await git(root, ['show', `${target}:package.json`]);
  result.toVersion = shown.exitCode === 0 ? versionAt(shown.stdout) : null;
  if (!result.toVersion) return refuse(`the version of release ${tag} cannot be read`);
  const log = await git(root, ['log', '--no-merges', '--reverse', '--format=%s', `HEAD..${target}`]);
  result.changes = log.stdout.split('\n').filter((l) => l.trim() !== '');
  const diff = await git(root, ['diff', '--name-only', `HEAD...${target}`]);
  // A diff git could not give is read as "the kit may have changed": re-reading is cheap.
  result.rereadNeeded = diff.exitCode !== 0 || diff.stdout.split('\n').some((f) => f.startsWith('hand/kit/'));

  const merged = await git(root, ['merge', '--ff-only', '--quiet', target]);
  if (merged.exitCode !== 0) return refuse(`main has diverged from release ${tag}: git merge --ff-only said ${firstLine(merged.stderr)}`);
  result.status = 'updated';
  const installed = await deps.install(root);
  result.installOk = installed.ok;
  result.installError = installed.ok ? null : installed.error;
  if (installed.ok && result.rereadNeeded && deps.refreshKit) {
    const kit = await deps.refreshKit(root);
    if (!kit.ok) {
      result.installOk = false;
      result.installError = `the kit was not rewritten: ${kit.error}`;
    }
  }
  result.ok = result.installOk === true;
  return result;
}
