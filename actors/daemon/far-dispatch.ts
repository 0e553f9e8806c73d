/**
 * What dispatch decides for a worker on another host (issue 28), before anything is made: the
 * host is known and checked, the project has a checkout registered there and git says it is
 * one, the backend is tmux (the one terminal host that runs over ssh), and the project lands
 * in a way that can run there: local-only into that checkout, or direct-PR from it — then the
 * checkout there has an origin and the far account has gh, or the dispatch is refused now rather
 * than the landing later. The no-mistakes postures are refused (their gate runs here only).
 */
import { RefusedError, UsageError } from '../../contract/errors.ts';
import type { ProjectRecord } from '../../contract/methods/fleet.ts';
import { repoTopLevel } from '../../io/git/index.ts';
import { onHost } from '../../io/git/git-place.ts';
import { originUrl } from '../../io/git/posture-checks.ts';
import { farToolPath, FAR_TOOL_PATH } from '../../io/ssh/far-tool.ts';
import type { SshTarget } from '../../io/ssh/ssh-command.ts';
import type { HostStore } from '../../persistence/host-store.ts';
import type { FarHosts } from './far-hosts.ts';

export interface FarPlace {
  host: string;
  target: SshTarget;
  /** The project's checkout there (git's top level). */
  repo: string;
  /** The worker's brief directory there (brief.md, report.md). */
  farDir: string;
}

export interface FarDispatchDeps {
  far: FarHosts;
  hosts: HostStore;
}

export async function planFarWorker(deps: FarDispatchDeps, p: { id: string; backend: string; host: string }, project: ProjectRecord): Promise<FarPlace> {
  const far = deps.far.get(p.host);
  if (p.backend !== 'tmux') {
    throw new UsageError('far-backend', `--backend ${p.backend} cannot run on host ${p.host}: workers on another machine run in tmux there. Leave --backend out (tmux).`, { backend: p.backend, host: p.host });
  }
  if (!FAR_POSTURES.has(project.posture)) {
    throw new RefusedError('far-posture', `project ${project.name} lands ${project.posture}, whose review gate (no-mistakes) runs on this machine only; workers on another host land local-only or direct-PR (from that host's checkout). Dispatch it on local, or register a local-only or direct-PR project for ${p.host}.`, { project: project.name, host: p.host, posture: project.posture });
  }
  const placed = deps.hosts.projectHosts(project.name).find((h) => h.host === p.host);
  if (!placed) {
    throw new RefusedError('project-not-on-host', `project ${project.name} has no checkout registered on host ${p.host}; clone it there, then hand project host ${project.name} ${p.host} <path there>.`, { project: project.name, host: p.host });
  }
  const repo = await onHost(far.target, () => repoTopLevel(placed.path));
  if (project.posture === 'direct-PR') await pushesFromThere(far.target, p.host, project.name, repo);
  return { host: p.host, target: far.target, repo, farDir: `${far.stateDir}/workers/${p.id}` };
}

/** Postures whose landing runs on the worker's host (landing.ts under onHost). */
const FAR_POSTURES = new Set(['local-only', 'direct-PR']);

/** A direct-PR worker lands from its host: the checkout there has an origin and the far account has gh (host check says the same). */
async function pushesFromThere(target: SshTarget, host: string, project: string, repo: string): Promise<void> {
  const origin = await onHost(target, () => originUrl(repo));
  if (!origin) {
    throw new RefusedError('posture-needs-origin', `project ${project} lands direct-PR, pushed from ${host}, but its checkout there (${repo}) has no origin remote; nothing was made. Add one there (git -C ${repo} remote add origin <url>), or dispatch it on local.`, { project, host, repo });
  }
  let gh: string | null;
  try {
    gh = await farToolPath(target, 'gh');
  } catch (err) {
    throw new RefusedError('gh-unknown', `could not ask host ${host} whether gh is installed there (${(err as Error).message}); nothing was made. Run hand host check ${host}, then dispatch again.`, { project, host });
  }
  if (!gh) {
    throw new RefusedError('far-gh-missing', `project ${project} lands direct-PR, and its workers on ${host} push and open the pull request from there, but gh (the GitHub CLI) is not installed on ${host} (searched ${FAR_TOOL_PATH} there); nothing was made. Install it there for ${target.user} (sudo apt-get install gh), run gh auth login there, check with hand host check ${host}, then dispatch again.`, { project, host, user: target.user });
  }
}
