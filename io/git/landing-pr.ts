/**
 * Landing for `direct-PR` projects: push the worker's branch to origin and open a pull request
 * with the GitHub CLI. Every precondition (gh installed, an origin remote) is checked before the
 * push, so a refusal leaves the remote untouched. The PR is never merged here.
 *
 * A far worker (git-place.ts: io/git runs on its host) lands from its host: the push is git
 * there, to that checkout's origin, and gh is the far account's, run there in the far worktree's
 * checkout with that account's HOME (its login) — never this machine's gh or token (far-tool.ts).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { RefusedError } from '../../contract/errors.ts';
import type { LandingEvidence } from './landing-evidence.ts';
import { landingTarget } from './landing-local.ts';
import { gitOrRefuse, runGit } from './run-git.ts';
import { farTarget } from './git-place.ts';
import { farToolPath, runFarTool, FAR_TOOL_PATH } from '../ssh/far-tool.ts';
import type { SshTarget } from '../ssh/ssh-command.ts';

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

export function prCreateArgv(args: { target: string; branch: string; title: string; body: string; draft?: boolean }): string[] {
  return ['pr', 'create', '--base', args.target, '--head', args.branch, '--title', args.title, '--body', args.body, ...(args.draft ? ['--draft'] : [])];
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
  /** The far host gh runs on (the worker's), or null for this machine; `gh` is then its path there and `env` is unused. */
  host: SshTarget | null;
}

/** Where gh is for this landing: on the far host io/git runs on now (its account's PATH), or on `env`'s PATH here. */
async function findGh(env: Record<string, string | undefined>, host: SshTarget | null): Promise<string | null> {
  if (!host) return findExecutable('gh', env);
  try {
    return await farToolPath(host, 'gh');
  } catch (err) {
    throw new RefusedError('gh-unknown', `could not ask ${host.user}@${host.address} whether gh is installed there (${(err as Error).message}); nothing was pushed. Run hand host check, then try again.`, { host: host.address });
  }
}

/** The refusal for a gh that is not where the landing runs (here, or the far host). */
export function ghMissing(branch: string, host: SshTarget | null): RefusedError {
  if (!host) return new RefusedError('gh-missing', `gh (the GitHub CLI) is not installed, so a direct-PR landing cannot open its pull request; nothing was pushed. ${GH_INSTALL_HINT}`, { branch });
  const where = `${host.user}@${host.address}`;
  return new RefusedError(
    'gh-missing',
    `gh (the GitHub CLI) is not installed on ${where} (searched ${FAR_TOOL_PATH} there), where this worker's direct-PR landing pushes and opens its pull request; nothing was pushed. Install it there as ${host.user} (e.g. sudo apt-get install gh), run gh auth login there, then try again.`,
    { branch, host: host.address, user: host.user },
  );
}

/** `draft`: a quick dispatch's pull request (a forge merges no draft); `note`: a first line of its body. */
export async function planDirectPr(e: LandingEvidence, env: Record<string, string | undefined>, o: { draft?: boolean; note?: string | null } = {}): Promise<PrPlan> {
  const host = farTarget();
  const gh = await findGh(env, host);
  if (!gh) throw ghMissing(e.branch, host);
  const remotes = await runGit(e.repo, ['remote']);
  if (remotes.exitCode !== 0 || !remotes.stdout.split('\n').some((r) => r.trim() === 'origin')) {
    throw new RefusedError('no-origin', `${e.repo} has no origin remote, so there is nowhere to push ${e.branch}; nothing was pushed. Add one (git remote add origin <url>) or register the project as local-only.`, { repo: e.repo });
  }
  const text = prText(e);
  const body = o.note ? `${o.note}\n\n${text.body}` : text.body;
  return { gh, repo: e.repo, env, host, push: pushArgv(e.branch), create: prCreateArgv({ target: landingTarget(e.base), branch: e.branch, title: text.title, body, draft: o.draft === true }) };
}

/** gh pr create where the landing runs: the far host's gh as its account, or ours with the caller's environment. */
async function runPrCreate(plan: PrPlan): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  if (plan.host) {
    const r = await runFarTool(plan.host, plan.repo, plan.gh, plan.create, { GH_PROMPT_DISABLED: '1' });
    return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.error ?? r.stderr };
  }
  const { execa } = await import('execa'); // loaded when first needed: its load is a tenth of a second (io/process/run-argv.ts)
  const r = await execa(plan.gh, plan.create, { cwd: plan.repo, reject: false, stdin: 'ignore', env: { ...plan.env, GH_PROMPT_DISABLED: '1' }, extendEnv: false });
  return { exitCode: r.exitCode ?? null, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
}

/** Pushes, then opens the PR; returns the PR URL gh printed. */
export async function openDirectPr(plan: PrPlan): Promise<{ url: string }> {
  await gitOrRefuse(plan.repo, plan.push, 'landing-push-refused', 'pushing the worker branch');
  const r = await runPrCreate(plan);
  const out = r.stdout;
  const url = out.split('\n').map((l) => l.trim()).find((l) => /^https:\/\//.test(l));
  if (r.exitCode !== 0 || !url) {
    const where = plan.host ? ` on ${plan.host.user}@${plan.host.address}` : '';
    throw new RefusedError('pr-create-failed', `the branch was pushed but gh pr create${where} did not return a PR URL: ${(r.stderr || out).trim()}. Open the PR by hand (gh ${plan.create.slice(0, 6).join(' ')} …).`, { argv: plan.create });
  }
  return { url };
}

/** True only when origin has the branch (`git ls-remote --heads`): a push is confirmed, not assumed. */
export async function remoteHasBranch(repo: string, branch: string): Promise<boolean> {
  const r = await runGit(repo, ['ls-remote', '--heads', 'origin', `refs/heads/${branch}`]);
  return r.exitCode === 0 && r.stdout.trim() !== '';
}
