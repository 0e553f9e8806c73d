/**
 * What the landing gate shows before anything lands: the diff and the commits between the
 * recorded base and the worker's branch, and an attribution scan of the commit messages.
 * Empty evidence is never clean evidence: `git log`/`git diff` against a missing ref print
 * nothing, so the base is verified first, and an empty diff is reported as "nothing to land",
 * never as a pass.
 */
import { RefusedError } from '../../contract/errors.ts';
import { commitOf, gitOrRefuse, runGit } from './run-git.ts';
import { pathThere } from './git-place.ts';

/** Commit messages mentioning any of these are refused (control-plane §4.1 Step 7). */
export const ATTRIBUTION = /claude|assistant|co-authored/i;

export type LandingVerdict = 'ready' | 'nothing-to-land' | 'attribution' | 'uncommitted';

export interface AttributionHit {
  sha: string;
  line: string;
}

export interface LandingEvidence {
  repo: string;
  branch: string;
  base: string;
  baseSha: string;
  headSha: string;
  /** `git diff --stat base...branch` (what the branch changed since it left the base). */
  diffStat: string;
  /** `git log --oneline base..branch`, newest first. */
  log: string;
  commits: { sha: string; subject: string }[];
  attributionHits: AttributionHit[];
  /** `git status --porcelain` lines of the worktree; null when the worktree is gone. */
  uncommitted: string[] | null;
  verdict: LandingVerdict;
}

/** Pure: the attribution scan over `git log --format=%H%x00%B%x1e` output. */
export function scanAttribution(records: string): { commits: { sha: string; body: string }[]; hits: AttributionHit[] } {
  const commits: { sha: string; body: string }[] = [];
  const hits: AttributionHit[] = [];
  for (const record of records.split('\x1e')) {
    const trimmed = record.replace(/^\n+/, '');
    if (!trimmed) continue;
    const nul = trimmed.indexOf('\x00');
    if (nul < 0) continue;
    const sha = trimmed.slice(0, nul);
    const body = trimmed.slice(nul + 1);
    commits.push({ sha, body });
    for (const line of body.split('\n')) if (ATTRIBUTION.test(line)) hits.push({ sha, line: line.trim() });
  }
  return { commits, hits };
}

/** Pure: the verdict, most serious first. */
export function landingVerdict(e: Pick<LandingEvidence, 'attributionHits' | 'uncommitted' | 'commits' | 'diffStat'>): LandingVerdict {
  if (e.attributionHits.length > 0) return 'attribution';
  if (e.uncommitted && e.uncommitted.length > 0) return 'uncommitted';
  if (e.commits.length === 0 || e.diffStat.trim() === '') return 'nothing-to-land';
  return 'ready';
}

async function mustResolve(repo: string, ref: string, code: string, message: string): Promise<string> {
  // One git process both checks and resolves the ref.
  const sha = await commitOf(repo, ref);
  if (sha === 'unknown') throw new RefusedError('git-unavailable', `could not ask git whether ${ref} exists in ${repo}; check that git works there.`, { repo, ref });
  if (sha === null) throw new RefusedError(code, message, { repo, ref });
  return sha;
}

export async function gatherLandingEvidence(args: { repo: string; branch: string; base: string; worktree?: string }): Promise<LandingEvidence> {
  const { repo, branch, base } = args;
  const baseSha = await mustResolve(
    repo,
    base,
    'landing-base-missing',
    `the recorded base ${base} no longer resolves in ${repo}, so there is no evidence to judge (an empty diff against a missing ref is not a clean one); nothing was landed. Fetch origin or recreate ${base}, then land again.`,
  );
  const headSha = await mustResolve(repo, `refs/heads/${branch}`, 'landing-branch-missing', `the worker branch ${branch} does not exist in ${repo}; nothing to land from.`);
  const diffStat = await gitOrRefuse(repo, ['diff', '--stat', `${baseSha}...${headSha}`, '--'], 'git-diff', 'gathering the diff');
  const log = await gitOrRefuse(repo, ['log', '--oneline', `${baseSha}..${headSha}`, '--'], 'git-log', 'gathering the log');
  const bodies = await gitOrRefuse(repo, ['log', '--format=%H%x00%B%x1e', `${baseSha}..${headSha}`, '--'], 'git-log', 'reading commit messages');
  const scan = scanAttribution(bodies);
  let uncommitted: string[] | null = null;
  if (args.worktree && (await pathThere(args.worktree))) {
    const st = await runGit(args.worktree, ['status', '--porcelain']);
    uncommitted = st.exitCode === 0 ? st.stdout.split('\n').filter((l) => l.trim() !== '') : null;
  }
  const commits = scan.commits.map((c) => ({ sha: c.sha, subject: c.body.split('\n')[0] ?? '' }));
  const partial = { diffStat: diffStat.trim(), commits, attributionHits: scan.hits, uncommitted };
  return { repo, branch, base, baseSha, headSha, log: log.trim(), ...partial, verdict: landingVerdict(partial) };
}

/** The refusal a verdict other than `ready` stands for, or null. */
export function evidenceRefusal(e: LandingEvidence): RefusedError | null {
  const details = { verdict: e.verdict, branch: e.branch, base: e.base };
  if (e.verdict === 'attribution') {
    const list = e.attributionHits.map((h) => `${h.sha.slice(0, 10)}: ${h.line}`).join('; ');
    return new RefusedError(
      'landing-attribution',
      `commit messages in ${e.base}..${e.branch} mention claude, an assistant or a co-author (${list}); nothing was landed. Reword those commits in the worktree (git rebase -i ${e.base}). If the hits are not the worker's own commits, the recorded base is wrong.`,
      { ...details, hits: e.attributionHits },
    );
  }
  if (e.verdict === 'uncommitted') {
    return new RefusedError('landing-uncommitted', `the worktree of ${e.branch} has uncommitted changes (${e.uncommitted!.join(', ')}); they would not land. Have the worker commit or discard them, then land again.`, {
      ...details,
      uncommitted: e.uncommitted,
    });
  }
  if (e.verdict === 'nothing-to-land') {
    return new RefusedError('nothing-to-land', `nothing to land: ${e.branch} has no changes relative to ${e.base} (${e.commits.length} commit(s), empty diff). This is not a clean landing; check that the worker committed its work.`, details);
  }
  return null;
}
