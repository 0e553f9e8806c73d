/**
 * Landing for `direct-PR` projects: push the worker's branch to origin and open a pull request
 * with the GitHub CLI. Every precondition (gh installed, an origin remote) is checked before the
 * push, so a refusal leaves the remote untouched. The PR is never merged here.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { RefusedError } from '../../contract/errors.ts';
import type { LandingEvidence } from './landing-evidence.ts';
import { landingTarget } from './landing-local.ts';
import { gitOrRefuse, runGit } from './run-git.ts';

export const GH_INSTALL_HINT =
  'Install the GitHub CLI (Debian/Ubuntu: sudo apt-get install gh; macOS: brew install gh; Windows: winget install --id GitHub.cli), run gh auth login, then approve again.';

/** The executable `name` on the PATH of `env`, or null. */
export function findExecutable(name: string, env: Record<string, string | undefined>): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export function pushArgv(branch: string): string[] {
  return ['push', '--set-upstream', 'origin', `refs/heads/${branch}:refs/heads/${branch}`];
}

export function prCreateArgv(args: { target: string; branch: string; title: string; body: string }): string[] {
  return ['pr', 'create', '--base', args.target, '--head', args.branch, '--title', args.title, '--body', args.body];
}

/** A title and body from the evidence only (never a mention of who or what wrote it). */
export function prText(e: LandingEvidence): { title: string; body: string } {
  const oldest = e.commits[e.commits.length - 1];
  const title = e.commits.length === 1 && oldest ? oldest.subject : `${e.branch}: ${e.commits.length} commits`;
  return { title, body: `Commits:\n${e.log}\n\nChanges:\n${e.diffStat}\n` };
}

export interface PrPlan {
  gh: string;
  repo: string;
  /** The environment gh runs with (the one it was found in): its token and config, never the daemon process's own by accident. */
  env: Record<string, string | undefined>;
  push: string[];
  create: string[];
}

export async function planDirectPr(e: LandingEvidence, env: Record<string, string | undefined>): Promise<PrPlan> {
  const gh = findExecutable('gh', env);
  if (!gh) throw new RefusedError('gh-missing', `gh (the GitHub CLI) is not installed, so a direct-PR landing cannot open its pull request; nothing was pushed. ${GH_INSTALL_HINT}`, { branch: e.branch });
  const remotes = await runGit(e.repo, ['remote']);
  if (remotes.exitCode !== 0 || !remotes.stdout.split('\n').some((r) => r.trim() === 'origin')) {
    throw new RefusedError('no-origin', `${e.repo} has no origin remote, so there is nowhere to push ${e.branch}; nothing was pushed. Add one (git remote add origin <url>) or register the project as local-only.`, { repo: e.repo });
  }
  return { gh, repo: e.repo, env, push: pushArgv(e.branch), create: prCreateArgv({ target: landingTarget(e.base), branch: e.branch, ...prText(e) }) };
}

/** Pushes, then opens the PR; returns the PR URL gh printed. */
export async function openDirectPr(plan: PrPlan): Promise<{ url: string }> {
  await gitOrRefuse(plan.repo, plan.push, 'landing-push-refused', 'pushing the worker branch');
  const { execa } = await import('execa'); // loaded when first needed: its load is a tenth of a second (io/process/run-argv.ts)
  const r = await execa(plan.gh, plan.create, { cwd: plan.repo, reject: false, stdin: 'ignore', env: { ...plan.env, GH_PROMPT_DISABLED: '1' }, extendEnv: false });
  const out = String(r.stdout ?? '');
  const url = out.split('\n').map((l) => l.trim()).find((l) => /^https:\/\//.test(l));
  if (r.exitCode !== 0 || !url) {
    throw new RefusedError('pr-create-failed', `the branch was pushed but gh pr create did not return a PR URL: ${String(r.stderr ?? out).trim()}. Open the PR by hand (gh ${plan.create.slice(0, 6).join(' ')} …).`, { argv: plan.create });
  }
  return { url };
}

/** True only when origin has the branch (`git ls-remote --heads`): a push is confirmed, not assumed. */
export async function remoteHasBranch(repo: string, branch: string): Promise<boolean> {
  const r = await runGit(repo, ['ls-remote', '--heads', 'origin', `refs/heads/${branch}`]);
  return r.exitCode === 0 && r.stdout.trim() !== '';
}
