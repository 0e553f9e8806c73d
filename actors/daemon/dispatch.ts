/**
 * The minimal dispatch path. Every refusal happens before anything is created
 * (DESIGN.md principle 7): no worktree, branch, pane or copied file is left by a refusal.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { RefusedError, UsageError } from '../../io/errors.ts';
import { loadBriefText, planBrief, undoBriefWrite, validateReadPaths, writeBriefPlan } from '../../io/brief/index.ts';
import type { FleetStore, WorkerIntent } from '../../persistence/types.ts';
import type { FleetHostApi, WorkerViewLike } from './fleet-api.ts';

export const WORKER_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,47}$/;
const FINAL_STAGES = ['stopped', 'gone', 'failed', 'lost', 'landed', 'rejected'];

export interface DispatchParams {
  id: string;
  repo: string;
  brief: string;
  readPaths: string[];
  agent: string;
  backend: string;
  stallMs: number;
  /** Bound on a readable screen that could not be told before a person is woken. */
  unclassifiedMs?: number;
  /** The environment of the person's `hand dispatch` call. */
  env: Record<string, string>;
  /** `--env K=V` additions, applied after every default (e.g. CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION=1). */
  envAdd?: Record<string, string>;
}

export interface DispatchDeps {
  store: FleetStore;
  fleet: FleetHostApi;
  workersDir: string;
  /** Real path of the top-level work tree containing `path`, or a typed refusal. */
  repoTopLevel(path: string): Promise<string>;
  /** The base ref to cut the worktree from, or a typed refusal (never an invented ref). */
  resolveBase(repo: string): Promise<string>;
  /** Backends this daemon can host, with the reason one is missing. */
  backendProblem(backend: string): string | null;
  agentProblem(agent: string): string | null;
  /** The agent's version as it would launch (`claude --version`), null when unknown. Optional: tests omit it. */
  agentVersion?(agent: string): Promise<string | null>;
  /** Keep the caller's environment for the worker's launch (memory only, never stored). */
  rememberCallerEnv(id: string, env: Record<string, string>, add?: Record<string, string>): void;
  /**
   * Where the standing files (done-<project>.md, rules-<project>.md) and the indexes
   * (index.md, index/<project>.md) live. Defaults to `data/` beside the workers directory.
   */
  dataDir?: string;
}

export function dataDirOf(deps: Pick<DispatchDeps, 'dataDir' | 'workersDir'>): string {
  return deps.dataDir ?? join(dirname(deps.workersDir), 'data');
}

export function firstPrompt(briefPath: string, reportPath: string): string {
  return (
    `Read the brief at ${briefPath} in full before you start, then do the work it describes. ` +
    `When you are done, or if you need a decision from a person, write your report to ${reportPath} and end your turn; ` +
    `do not wait on an interactive prompt.`
  );
}

export async function dispatchWorker(p: DispatchParams, deps: DispatchDeps): Promise<WorkerViewLike> {
  if (!WORKER_ID.test(p.id)) {
    throw new UsageError('bad-worker-id', `worker id ${JSON.stringify(p.id)} is not usable: use 1-48 letters, digits, '-' or '_', starting with a letter or digit (it becomes the branch worktree-<id>).`, { id: p.id });
  }
  if (!['claude', 'mock'].includes(p.agent)) {
    throw new UsageError('bad-agent', `unknown agent ${JSON.stringify(p.agent)}. Use --agent claude or --agent mock.`, { agent: p.agent });
  }
  if (!['tmux', 'pty', 'herdr'].includes(p.backend)) {
    throw new UsageError('bad-backend', `unknown backend ${JSON.stringify(p.backend)}. Use --backend tmux, pty or herdr.`, { backend: p.backend });
  }
  const existing = deps.fleet.view(p.id);
  if (existing && !FINAL_STAGES.includes(existing.stage.split('.')[0]!)) {
    throw new RefusedError('worker-exists', `worker ${p.id} already exists (stage ${existing.stage}). Stop it first (hand stop ${p.id}) or pick another id.`, { id: p.id });
  }
  // Cheap input checks first, so a typo is named before any repository is consulted.
  loadBriefText(p.brief);
  validateReadPaths(p.readPaths);
  if (!existsSync(p.repo)) throw new UsageError('missing-repo', `repository ${resolve(p.repo)} does not exist. Pass --repo <path> to a registered git work tree.`, { repo: p.repo });
  const repo = await deps.repoTopLevel(realpathSync(p.repo));
  const project = deps.store.listProjects().find((pr) => pr.repo === repo);
  if (!project) {
    throw new RefusedError('unregistered-repo', `repository ${repo} is not registered. Register it first: hand annex ${repo}`, { repo });
  }
  const backendProblem = deps.backendProblem(p.backend);
  if (backendProblem) throw new RefusedError('backend-unavailable', backendProblem, { backend: p.backend });
  const agentProblem = deps.agentProblem(p.agent);
  if (agentProblem) throw new RefusedError('agent-unavailable', agentProblem, { agent: p.agent });
  const dir = join(deps.workersDir, p.id);
  // All brief rules (section, read paths, standing files, index rule) are decided here, in memory.
  const plan = planBrief({ brief: p.brief, readPaths: p.readPaths, dataDir: dataDirOf(deps), project: project.name, briefDir: dir });
  const briefPath = plan.briefPath;
  const reportPath = join(dir, 'report.md');
  if (existsSync(reportPath)) {
    throw new RefusedError('stale-report', `a report from an earlier worker named ${p.id} exists at ${reportPath}; it would read as this worker's report. Move it away or pick another id.`, { reportPath });
  }
  const base = await deps.resolveBase(repo);
  const agentVersion = (await deps.agentVersion?.(p.agent)) ?? null;

  // Validation is over: from here on things are created, and undone if dispatch fails.
  const created = writeBriefPlan(plan);
  const intent: WorkerIntent = {
    id: p.id,
    project: project.name,
    repo,
    worktree: join(repo, '.claude', 'worktrees', p.id),
    branch: `worktree-${p.id}`,
    base,
    backend: p.backend as WorkerIntent['backend'],
    agent: p.agent,
    agentVersion,
    briefPath,
    reportPath,
    createdAt: Date.now(),
  };
  deps.rememberCallerEnv(p.id, p.env, p.envAdd);
  try {
    // The dispatch gate: read from the stored project (a boolean), never guessed. A non-yolo worker
    // rests at brief approval with only its brief directory made.
    const briefGate = project.yolo !== true;
    return await deps.fleet.dispatch({ intent, stallMs: p.stallMs, unclassifiedMs: p.unclassifiedMs, firstPrompt: firstPrompt(briefPath, reportPath), briefGate });
  } catch (err) {
    // Only what this dispatch wrote goes: an earlier worker's brief directory and report stay.
    if (!deps.fleet.view(p.id)) undoBriefWrite(created);
    throw err;
  }
}
