/**
 * Which ref a new worker is cut from. The answer is both the branch point and the base the
 * landing gate later diffs against, so it must name something that exists: `git log` and
 * `git diff` against a missing ref print nothing, which a gate would read as a clean pass.
 * Order (each candidate confirmed with `rev-parse --verify <ref>^{commit}`): the declared
 * integration branch, origin/HEAD, the current branch (remote copy first), main/master.
 */
import { RefusedError } from '../../contract/errors.ts';
import { readDeclaredBaseBranchThere, NO_MISTAKES_FILE } from './declared-base-branch.ts';
import { commitExists, commitsExist, runGit } from './run-git.ts';
import { repoTopLevel } from './work-tree.ts';

export type BaseRefSource = 'declared' | 'origin-head' | 'current-branch' | 'default-branch';

export interface BaseRefResolution {
  /** The ref name (not a sha): what `git worktree add -b` starts from and what landing compares with. */
  base: string;
  source: BaseRefSource;
  /** Things the person should hear about that did not stop the dispatch. */
  warnings: string[];
  /** Worker branches that came up as candidates and were refused by name. */
  rejected: string[];
}

/** A worker's branch is never a base (incident: origin/HEAD briefly pointed at another worker's branch). */
export function isWorkerBranchName(ref: string): boolean {
  return /^(origin\/)?worktree-/.test(ref);
}

interface Candidate {
  ref: string;
  source: BaseRefSource;
}

async function hasOrigin(repo: string): Promise<boolean> {
  const r = await runGit(repo, ['remote']);
  return r.exitCode === 0 && r.stdout.split('\n').some((l) => l.trim() === 'origin');
}

async function shortSymbolicRef(repo: string, name: string): Promise<string | null> {
  const r = await runGit(repo, ['symbolic-ref', '--quiet', '--short', name]);
  return r.exitCode === 0 && r.stdout.trim() ? r.stdout.trim() : null;
}

async function resolves(repo: string, ref: string, known?: Map<string, boolean> | null): Promise<boolean> {
  const batched = known?.get(ref);
  if (batched !== undefined) return batched;
  const answer = await commitExists(repo, ref);
  if (answer === 'unknown') {
    throw new RefusedError('git-unavailable', `could not ask git whether ${ref} exists in ${repo}; check that git works there.`, { repo, ref });
  }
  return answer;
}

export async function resolveBaseRef(repoPath: string): Promise<BaseRefResolution> {
  return resolveBaseRefAt(await repoTopLevel(repoPath));
}

/**
 * The same resolution for a repository whose top level the caller has just asked git for
 * (dispatch and annex have: repoTopLevel), so it is not asked again.
 */
export async function resolveBaseRefAt(repo: string): Promise<BaseRefResolution> {
  const origin = await hasOrigin(repo);
  const warnings: string[] = [];
  const rejected: string[] = [];
  // Read where git runs: a far worker's base is what its far checkout declares.
  const declared = await readDeclaredBaseBranchThere(repo);
  const declaredName = declared.kind === 'declared' ? declared.branch : null;

  // Step 0: the declared integration branch, remote copy first.
  if (declaredName !== null) {
    if (isWorkerBranchName(declaredName) || declaredName.startsWith('-')) {
      rejected.push(declaredName);
      warnings.push(`${NO_MISTAKES_FILE} declares pr.base_branch '${declaredName}', which is a worker branch name (or not a branch name at all); it was ignored. Correct the declaration.`);
    } else {
      for (const ref of [`origin/${declaredName}`, declaredName]) {
        if (!(await resolves(repo, ref))) continue;
        if (origin && ref === declaredName) {
          warnings.push(`declared base '${declaredName}' exists only as a local branch although the repository has an origin; it may be stale. Push it or fetch origin/${declaredName}.`);
        }
        return { base: ref, source: 'declared', warnings, rejected };
      }
      warnings.push(
        origin
          ? `${NO_MISTAKES_FILE} declares pr.base_branch '${declaredName}' but neither origin/${declaredName} nor ${declaredName} exists; fetch it if origin has it, else create it or correct the declaration.`
          : `${NO_MISTAKES_FILE} declares pr.base_branch '${declaredName}' but no branch of that name exists; create it or correct the declaration.`,
      );
    }
  }

  const candidates: Candidate[] = [];
  const originHead = await shortSymbolicRef(repo, 'refs/remotes/origin/HEAD');
  if (originHead) candidates.push({ ref: originHead, source: 'origin-head' });
  const current = await shortSymbolicRef(repo, 'HEAD'); // null when HEAD is detached
  if (current) {
    candidates.push({ ref: `origin/${current}`, source: 'current-branch' }, { ref: current, source: 'current-branch' });
  }
  for (const ref of ['origin/main', 'origin/master', 'main', 'master']) candidates.push({ ref, source: 'default-branch' });

  const tried: string[] = declaredName && !rejected.includes(declaredName) ? [`origin/${declaredName}`, declaredName] : [];
  const asked = candidates.filter((c) => !tried.includes(c.ref) && !rejected.includes(c.ref) && !isWorkerBranchName(c.ref)).map((c) => c.ref);
  // One git process for every name still to try (the order below still decides).
  const known = await commitsExist(repo, [...new Set(asked)]);
  for (const c of candidates) {
    if (tried.includes(c.ref) || rejected.includes(c.ref)) continue;
    if (isWorkerBranchName(c.ref)) {
      rejected.push(c.ref);
      continue;
    }
    tried.push(c.ref);
    if (await resolves(repo, c.ref, known)) return { base: c.ref, source: c.source, warnings, rejected };
  }

  const parts = [`Cannot resolve a base ref for ${repo}: none of ${tried.join(', ')} names a commit.`];
  if (rejected.length) parts.push(`Worker branches are never a base, so ${rejected.join(', ')} ${rejected.length === 1 ? 'was' : 'were'} rejected.`);
  if (declaredName) parts.push(`The declared pr.base_branch '${declaredName}' in ${NO_MISTAKES_FILE} did not resolve.`);
  parts.push(
    origin
      ? `Fix: fetch origin (git fetch origin), or check out the integration branch in ${repo}, or declare it as pr.base_branch in ${NO_MISTAKES_FILE}.`
      : `Fix: commit to a main or master branch in ${repo}, or declare an existing branch as pr.base_branch in ${NO_MISTAKES_FILE}.`,
  );
  throw new RefusedError('base-ref-unresolvable', parts.join(' '), { repo, tried, rejected, declared: declaredName, warnings });
}
