/** Shared records for the persistence tests: a registered project and a worker in it. */
import type { ProjectRecord, WorkerIntent } from '../../persistence/types.ts';

export function project(name = 'app', over: Partial<ProjectRecord> = {}): ProjectRecord {
  return { name, repo: `/srv/${name}`, posture: 'local-only', yolo: false, registeredAt: 1_000, permissions: 'off', defaultAgent: null, ...over };
}

export function worker(id: string, over: Partial<WorkerIntent> = {}): WorkerIntent {
  return {
    id,
    project: 'app',
    repo: '/srv/app',
    worktree: `/srv/app/.claude/worktrees/${id}`,
    branch: `worktree-${id}`,
    base: 'main',
    backend: 'tmux',
    agent: 'mock',
    briefPath: `/state/workers/${id}/brief.md`,
    reportPath: `/state/workers/${id}/report.md`,
    createdAt: 2_000,
    ...over,
  };
}
