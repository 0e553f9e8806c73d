/**
 * What dispatch decides for a worker on another host (issue 28), before anything is made: the
 * host is known and checked, the project has a checkout registered there and git says it is
 * one, the backend is tmux (the one terminal host that runs over ssh), the project lands
 * local-only (a push posture from a far host is not wired yet: refused, never half done) and the
 * agent CLI is on the PATH a far worker starts with (its version read there, as here).
 */
import { RefusedError, UsageError } from '../../contract/errors.ts';
import type { ProjectRecord } from '../../contract/methods/fleet.ts';
import { repoTopLevel } from '../../io/git/index.ts';
import { onHost } from '../../io/git/git-place.ts';
import type { SshTarget } from '../../io/ssh/ssh-command.ts';
import type { HostStore } from '../../persistence/host-store.ts';
import type { FarHosts } from './far-hosts.ts';
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
  if (project.posture !== 'local-only') {
    throw new RefusedError('far-posture', `project ${project.name} lands ${project.posture}; workers on another host land local-only for now (into that host's checkout). Dispatch it on local, or register a local-only project for ${p.host}.`, { project: project.name, host: p.host });
  }
  const placed = deps.hosts.projectHosts(project.name).find((h) => h.host === p.host);
  if (!placed) {
    throw new RefusedError('project-not-on-host', `project ${project.name} has no checkout registered on host ${p.host}; clone it there, then hand project host ${project.name} ${p.host} <path there>.`, { project: project.name, host: p.host });
  }
  const repo = await onHost(far.target, () => repoTopLevel(placed.path));
  const agentVersion = await farAgentVersion(far, p.agent);
  return { host: p.host, target: far.target, repo, farDir: `${far.stateDir}/workers/${p.id}`, agentVersion };
}
