/**
 * What dispatch decides for a worker on another host (issue 28), before anything is made: the
 * host is known and checked, the project has a checkout registered there and git says it is
 * one, the backend is tmux (the one terminal host that runs over ssh), and the project lands
 * in a way that can run there: local-only into that checkout, or a push posture from it — then
 * the checkout there has an origin and the far account has gh (and no-mistakes, for a
 * no-mistakes posture: the worker runs the gate there, and its outward step is released there),
 * or the dispatch is refused now rather than the landing later; and the agent CLI is on the PATH
 * a far worker starts with (its version read there, as here).
 */
import { RefusedError, UsageError } from '../../contract/errors.ts';
import type { ProjectRecord } from '../../contract/methods/fleet.ts';
import { repoTopLevel } from '../../io/git/index.ts';
import { onHost } from '../../io/git/git-place.ts';
import { hostsYmlLoggedIn, NO_MISTAKES_INSTALL, NO_MISTAKES_POSTURES, originUrl, PUSH_CAPABLE } from '../../io/git/posture-checks.ts';
import { readRemoteFile } from '../../io/ssh/remote-files.ts';
import { farToolPath, FAR_TOOL_PATH } from '../../io/ssh/far-tool.ts';
import type { SshTarget } from '../../io/ssh/ssh-command.ts';
import type { HostStore } from '../../persistence/host-store.ts';
import type { FarHost, FarHosts } from './far-hosts.ts';
import { farAgentVersion } from './far-agents.ts';

export interface FarPlace {
  host: string;
  target: SshTarget;
  /** The project's checkout there (git's top level). */
  repo: string;
  /** The worker's brief directory there (brief.md, report.md). */
  farDir: string;
  /** The agent's version there (null: it did not tell). */
  agentVersion: string | null;
}

export interface FarDispatchDeps {
  far: FarHosts;
  hosts: HostStore;
}

export async function planFarWorker(deps: FarDispatchDeps, p: { id: string; backend: string; host: string; agent: string }, project: ProjectRecord): Promise<FarPlace> {
  const far = deps.far.get(p.host);
  if (p.backend !== 'tmux') {
    throw new UsageError('far-backend', `--backend ${p.backend} cannot run on host ${p.host}: workers on another machine run in tmux there. Leave --backend out (tmux).`, { backend: p.backend, host: p.host });
  }
  const placed = deps.hosts.projectHosts(project.name).find((h) => h.host === p.host);
  if (!placed) {
    throw new RefusedError('project-not-on-host', `project ${project.name} has no checkout registered on host ${p.host}; clone it there, then hand project host ${project.name} ${p.host} <path there>.`, { project: project.name, host: p.host });
  }
  const repo = await onHost(far.target, () => repoTopLevel(placed.path));
  if (PUSH_CAPABLE.has(project.posture)) await pushesFromThere(far, project, repo);
  const agentVersion = await farAgentVersion(far, p.agent);
  return { host: p.host, target: far.target, repo, farDir: `${far.stateDir}/workers/${p.id}`, agentVersion };
}

/**
 * A push posture lands from the worker's host: the checkout there has an origin, the far account
 * has gh, and for a no-mistakes posture the gate (host check names gh; the gate is asked here).
 */
async function pushesFromThere(far: FarHost, project: ProjectRecord, repo: string): Promise<void> {
  const { target, name: host } = far;
  const origin = await onHost(target, () => originUrl(repo));
  if (!origin) {
    throw new RefusedError('posture-needs-origin', `project ${project.name} lands ${project.posture}, pushed from ${host}, but its checkout there (${repo}) has no origin remote; nothing was made. Add one there (git -C ${repo} remote add origin <url>), or dispatch it on local.`, { project: project.name, host, repo });
  }
  const tools = NO_MISTAKES_POSTURES.has(project.posture) ? ['gh', 'no-mistakes'] : ['gh'];
  for (const tool of tools) {
    let found: string | null;
    try {
      found = await farToolPath(target, tool);
    } catch (err) {
      throw new RefusedError('far-tool-unknown', `could not ask host ${host} whether ${tool} is installed there (${(err as Error).message}); nothing was made. Run hand host check ${host}, then dispatch again.`, { project: project.name, host, tool });
    }
    if (found) continue;
    if (tool === 'gh') {
      throw new RefusedError('far-gh-missing', `project ${project.name} lands ${project.posture}, and its workers on ${host} push and open the pull request from there, but gh (the GitHub CLI) is not installed on ${host} (searched ${FAR_TOOL_PATH} there); nothing was made. Install it there for ${target.user} (sudo apt-get install gh), run gh auth login there, check with hand host check ${host}, then dispatch again.`, { project: project.name, host, user: target.user });
    }
    throw new RefusedError('far-gate-missing', `project ${project.name} lands ${project.posture}, and its workers on ${host} run the no-mistakes gate there, but no-mistakes is not installed on ${host} (searched ${FAR_TOOL_PATH} there); nothing was made. Install it there for ${target.user}: ${NO_MISTAKES_INSTALL}. Then dispatch again.`, { project: project.name, host, user: target.user });
  }
  // gh there runs with only the far account's HOME (far-tool.ts): its login is the one in that HOME's gh config.
  const config = `${far.home}/.config/gh/hosts.yml`;
  let hosts: string | null;
  try {
    hosts = await readRemoteFile(target, config);
  } catch (err) {
    throw new RefusedError('far-tool-unknown', `could not read ${config} on host ${host} to tell whether gh is logged in there (${(err as Error).message}); nothing was made. Run hand host check ${host}, then dispatch again.`, { project: project.name, host });
  }
  if (hosts === null || !hostsYmlLoggedIn(hosts)) {
    throw new RefusedError('far-gh-login', `project ${project.name} lands ${project.posture}, and its workers on ${host} open the pull request with ${target.user}'s gh there, which is not logged in (${config} names no host); nothing was made. Run gh auth login on ${host} as ${target.user}, then dispatch again.`, { project: project.name, host, user: target.user });
  }
}
