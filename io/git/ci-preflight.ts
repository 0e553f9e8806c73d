/**
 * CI preflight (workflow §5): before a no-mistakes dispatch, can anything ever post a check on a
 * pull request of this repository? Three answers — has-ci, no-ci, unknown — and a failed lookup
 * is never turned into either of the first two. The result carries the brief line (§5.3) and
 * the gate invocation's --skip ci only on a repository proven no-ci.
 */
import { existsSync, statSync } from 'node:fs';
import { findExecutable } from './landing-pr.ts';
import { runGit } from './run-git.ts';
import { farTarget } from './git-place.ts';
import { runFarTool } from '../ssh/far-tool.ts';

export type CiStatus = 'has-ci' | 'no-ci' | 'unknown';
export type CiSignal =
  | 'no-such-path' | 'not-a-repo' | 'ci-config' | 'no-remote' | 'remote-not-github' | 'lookup-failed' | 'no-commits' | 'checks-reported' | 'none-reported';

export interface CiPreflight {
  repoPath: string;
  status: CiStatus;
  signal: CiSignal;
  /** One human sentence naming the evidence. */
  detail: string;
  slug: string | null;
  configFiles: string[];
  branch: string | null;
  commits: string[];
  checksFound: number;
  briefLine: string;
}

const OTHER_PROVIDERS = ['azure-pipelines.yml', 'azure-pipelines.yaml', '.gitlab-ci.yml', '.circleci/config.yml', 'Jenkinsfile', '.travis.yml', 'appveyor.yml', '.appveyor.yml', 'bitbucket-pipelines.yml'];
const PR_TRIGGERS = new Set(['pull_request', 'pull_request_target', 'push', 'merge_group', 'workflow_call', 'workflow_run']);

/** `on:` triggers of a workflow by a targeted line scan (§5.1 step 5), or null when not established. */
export function workflowTriggers(text: string): string[] | null {
  const lines = text.split(/\r?\n/);
  const strip = (l: string) => l.replace(/\s+#.*$/, '').replace(/^#.*$/, '');
  const at = lines.findIndex((l) => /^(on|'on'|"on"|true)\s*:/.test(l));
  if (at < 0) return null;
  const inline = strip(lines[at]!.replace(/^[^:]+:/, '')).trim();
  if (inline) {
    const list = /^\[(.*)\]$/.exec(inline);
    const names = (list ? list[1]!.split(',') : [inline]).map((n) => n.trim().replace(/^['"]|['"]$/g, '').toLowerCase()).filter(Boolean);
    return names.length ? names : null;
  }
  const names: string[] = [];
  let indent: number | null = null;
  for (const raw of lines.slice(at + 1)) {
    const l = strip(raw);
    if (l.trim() === '') continue;
    const ind = l.length - l.trimStart().length;
    if (ind === 0) break;
    if (indent === null) indent = ind;
    if (ind !== indent) continue;
    const m = /^\s*(?:-\s*)?([A-Za-z_'"][\w'"-]*)\s*:?/.exec(l);
    if (m) names.push(m[1]!.replace(/^['"]|['"]$/g, '').toLowerCase());
  }
  return names.length ? names : null;
}

/** Committed CI files (HEAD's tree, not the working tree: an uncommitted file reports on nothing). */
async function ciConfigFiles(repo: string): Promise<string[] | null> {
  const r = await runGit(repo, ['ls-tree', '-r', '--name-only', 'HEAD', '--', '.github/workflows', ...OTHER_PROVIDERS]);
  if (r.exitCode !== 0) return null;
  return r.stdout
    .split('\n')
    .filter((f) => f !== '')
    .filter((f) => (f.startsWith('.github/workflows/') ? /^\.github\/workflows\/[^/]+\.ya?ml$/.test(f) : OTHER_PROVIDERS.includes(f)));
}

async function committedText(repo: string, file: string): Promise<string | null> {
  const r = await runGit(repo, ['show', `HEAD:${file}`]);
  return r.exitCode === 0 ? r.stdout : null;
}

/** github.com[:/]owner/repo(.git) -> owner/repo. */
export function githubSlug(url: string): string | null {
  const m = /github\.com[:/]([^/\s]+)\/([^/\s]+?)(?:\.git)?\/?$/.exec(url.trim());
  return m ? `${m[1]}/${m[2]}` : null;
}

type GhAnswer = { ok: true; value: string } | { ok: false; error: string };

/** The one non-throwing boundary to gh (§5.1): a non-zero exit is an error collapsed to one line. */
async function ghApi(env: Record<string, string | undefined>, path: string, jq: string): Promise<GhAnswer> {
  const far = farTarget();
  if (far) {
    // A far checkout's CI is asked about by the far account's gh (its login), never ours.
    const r = await runFarTool(far, '/', 'gh', ['api', path, '--jq', jq], { GH_PROMPT_DISABLED: '1' }, 30_000);
    if (r.exitCode === 127) return { ok: false, error: `gh was not found on ${far.user}@${far.address}. Install the GitHub CLI there, then gh auth login there.` };
    if (r.exitCode !== 0) return { ok: false, error: (r.error ?? (r.stderr || r.stdout || 'gh failed')).replace(/\s+/g, ' ').trim() };
    return { ok: true, value: r.stdout.trim() };
  }
  const gh = findExecutable('gh', env);
  if (!gh) return { ok: false, error: 'gh was not found. Install the GitHub CLI, then gh auth login.' };
  const { execa } = await import('execa'); // loaded when first needed: its load is a tenth of a second (io/process/run-argv.ts)
  const r = await execa(gh, ['api', path, '--jq', jq], { reject: false, stdin: 'ignore', env: env as NodeJS.ProcessEnv, extendEnv: false, timeout: 30_000 });
  if (r.exitCode !== 0) return { ok: false, error: String(r.stderr || r.stdout || r.shortMessage || 'gh failed').replace(/\s+/g, ' ').trim() };
  return { ok: true, value: String(r.stdout ?? '').trim() };
}

export function ciBriefLine(status: CiStatus): string {
  if (status === 'has-ci') return 'Drive the no-mistakes pipeline to a PR; report its full https URL once CI is first green. Do not merge.';
  // no-ci and unknown share the line on purpose: the terminating instruction is the safe one.
  return 'Drive the no-mistakes pipeline to a PR and stop. If the ci step has waited more than fifteen minutes with no checks, report the PR URL as delivered, say plainly that no checks were reported, and stop. Do not merge.';
}

export async function ciPreflight(repoPath: string, env: Record<string, string | undefined> = process.env, commitsToCheck = 5): Promise<CiPreflight> {
  const base = { repoPath, slug: null as string | null, configFiles: [] as string[], branch: null as string | null, commits: [] as string[], checksFound: 0 };
  const done = (status: CiStatus, signal: CiSignal, detail: string, extra: Partial<CiPreflight> = {}): CiPreflight => ({ ...base, ...extra, status, signal, detail, briefLine: ciBriefLine(status) });
  // On a far host (git-place.ts) the rev-parse below answers for the path there.
  if (!farTarget() && (!existsSync(repoPath) || !statSync(repoPath).isDirectory())) return done('unknown', 'no-such-path', `${repoPath} is not a directory.`);
  const inside = await runGit(repoPath, ['rev-parse', '--is-inside-work-tree']);
  if (inside.exitCode !== 0 || inside.stdout.trim() !== 'true') return done('unknown', 'not-a-repo', `${repoPath} is not a git work tree.`);
  const listed = await ciConfigFiles(repoPath);
  // A repository with no commit yet has no committed CI: an empty list, not a failure.
  const files = listed ?? [];
  base.configFiles = files;
  const origin = await runGit(repoPath, ['remote', 'get-url', 'origin']);
  const url = origin.exitCode === 0 ? origin.stdout.trim() : '';
  const slug = url ? githubSlug(url) : null;
  base.slug = slug;
  const reporting: string[] = [];
  for (const f of files) {
    if (f.startsWith('.github/workflows/')) {
      const text = await committedText(repoPath, f);
      // Unreadable is not absence: a workflow whose `on:` cannot be established is kept.
      const triggers = text === null ? null : workflowTriggers(text);
      if (triggers === null || triggers.some((t) => PR_TRIGGERS.has(t))) reporting.push(f);
    } else if (!slug) reporting.push(f); // another provider's file says nothing about a GitHub PR
  }
  if (reporting.length > 0) return done('has-ci', 'ci-config', `committed CI configuration can report on a PR: ${reporting.join(', ')}.`);
  if (!slug) {
    return url ? done('unknown', 'remote-not-github', `origin (${url}) is not on GitHub, so its checks cannot be asked about.`) : done('no-ci', 'no-remote', 'the repository has no origin remote, so nothing can post a check on a PR.');
  }
  const branch = await ghApi(env, `repos/${slug}`, '.default_branch');
  if (!branch.ok) return done('unknown', 'lookup-failed', `asking GitHub for ${slug}'s default branch failed: ${branch.error}`);
  if (!branch.value) return done('unknown', 'lookup-failed', `GitHub gave no default branch for ${slug}.`);
  base.branch = branch.value;
  const shas = await ghApi(env, `repos/${slug}/commits?sha=${branch.value}&per_page=${commitsToCheck}`, '.[].sha');
  if (!shas.ok) return done('unknown', 'lookup-failed', `listing ${slug}'s recent commits failed: ${shas.error}`);
  const commits = shas.value.split('\n').map((s) => s.trim()).filter(Boolean);
  base.commits = commits;
  if (commits.length === 0) return done('unknown', 'no-commits', `${slug}'s ${branch.value} has no commits to look at.`);
  let answered = 0;
  for (const sha of commits) {
    let sum = 0;
    let any = false;
    for (const kind of ['check-runs', 'status']) {
      const r = await ghApi(env, `repos/${slug}/commits/${sha}/${kind}`, '.total_count');
      // Only an integer is an answer: stderr noise riding on a zero exit is not.
      if (r.ok && /^\d+$/.test(r.value)) {
        any = true;
        sum += Number(r.value);
      }
    }
    if (!any) continue;
    answered++;
    if (sum > 0) return done('has-ci', 'checks-reported', `commit ${sha.slice(0, 12)} on ${branch.value} has ${sum} check(s) reported.`, { checksFound: sum });
  }
  if (answered === 0) return done('unknown', 'lookup-failed', `no check lookup for ${slug}'s recent commits gave an answer.`);
  return done('no-ci', 'none-reported', `none of the last ${answered} commit(s) on ${slug}'s ${branch.value} had any check or status reported.`);
}
