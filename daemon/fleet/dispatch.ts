/**
 * The minimal dispatch path, from a request already parsed at the edge (params.ts: id, agent,
 * backend are checked there). Every refusal happens before anything is created
 * (DESIGN.md principle 7): no worktree, branch, pane or copied file is left by a refusal.
 */
import { somethingAt } from '../../io/fs/worker-places.ts';
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { RefusedError, UsageError } from '../../contract/errors.ts';
import { loadBriefText, planBrief, undoBriefWrite, validateReadPaths, writeBriefPlan } from '../../io/brief/index.ts';
import type { FleetStore, ProjectRecord, WorkerIntent } from '../../persistence/types.ts';
import { checkWorktreeSlot } from '../../io/git/worktree-slot.ts';
import { FIRST_PROMPT_CONVENTION } from '../../io/brief/decision-convention.ts';
import { agentProfile } from '../../io/agent/profiles/index.ts';
import { allowListEnv } from '../../io/terminal/worker-env.ts';
import { parseTaskKind, reviewGatePlan, withGateSection, writeGatePlan } from '../gates/review-gate.ts';
import { reportPathOf, reportRelativePath } from '../../io/brief/worker-layout.ts';
import type { FleetHostApi, WorkerViewLike } from '../../actors/fleet-api.ts';
import type { DispatchRequest } from '../params.ts';
import { backendUnavailable, workerExists } from '../../contract/refusals.ts';
import { workspaceFor } from '../../io/workspace/recorded.ts';
import { planClaudeJson, planSandboxedClaudeJson, type ClaudeJsonPlan } from '../../io/agent/claude/claude-json-plan.ts';
import { agentsDirOf } from '../../io/sandbox/worker-sandbox.ts';
import { onHost } from '../../io/git/git-place.ts';
import type { RepoFacts } from '../../io/git/work-tree.ts';
import type { FarPlace } from '../hosts/far-dispatch.ts';
import type { AgentChosenBy } from '../../contract/methods/fleet.ts';
import { chooseAgent } from './agent-choice.ts';
import { validateWorkerId } from '../../io/git/worker-names.ts';
import type { SandboxAvailability } from '../../io/sandbox/availability.ts';
import { FAR_HOST_HAS_NO_SANDBOX, sandboxRefusal } from '../../io/sandbox/refusal.ts';
import type { CalibrationStanding } from '../../contract/methods/calibration.ts';


/** The typed request (parsed once at the daemon's edge, params.ts). */
export type DispatchParams = DispatchRequest;

export interface DispatchDeps {
  store: FleetStore;
  fleet: FleetHostApi;
  workersDir: string;
  /** Real path of the top-level work tree containing `path`, or a typed refusal. */
  repoTopLevel(path: string): Promise<string>;
  /**
   * The same answer with the repository's common git directory, from the same git process
   * (io/git/work-tree.ts repoFacts). Absent (test deps): dispatch asks repoTopLevel.
   */
  repoFacts?(path: string): Promise<RepoFacts>;
  /**
   * Runs `during` with what this dispatch asked git of the worker's repository handed to the
   * worker's preparation (io/ports/real-ports.ts), so it is not asked again. Absent: not handed.
   */
  withRepoFacts?<T>(id: string, facts: RepoFacts, during: () => Promise<T>): Promise<T>;
  /** The base ref to cut the worktree from, or a typed refusal (never an invented ref). `repo` is a top level (repoTopLevel's answer). */
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
   * (index.md, index/<project>.md) live, fixed by a test. Without it: the Hand workspace's data/
   * (io/workspace/recorded.ts), looked up on each dispatch.
   */
  dataDir?: string;
  /** False for ports that never write ~/.claude.json (in-process tests); the real ports do. */
  seedsClaudeJson?: boolean;
  /**
   * Whether kingshand's worker sandbox can be built here (io/sandbox/availability.ts). Absent (test
   * ports that launch nothing): not asked.
   */
  sandbox?(): SandboxAvailability;
  /**
   * Where the agent as installed here stands against its last calibration (issue 39); null when it
   * has none to stand on (the mock, not installed). Absent (test ports): not asked.
   */
  calibration?(agent: string): Promise<CalibrationStanding | null>;
  /** The host a project's workers go to when a dispatch names none (null: local). */
  defaultHost?(project: string): string | null;
  /** Where a worker of `project` would live on a far host, or a refusal (far-dispatch.ts). Absent: no far hosts. */
  planFar?(p: { id: string; backend: string; host: string; agent: string }, project: ProjectRecord): Promise<FarPlace>;
}

/** The data/ that `hand index add` writes: the caller's workspace, else the one `hand init` recorded; null without any. */
export function dataDirOf(deps: Pick<DispatchDeps, 'dataDir' | 'workersDir'>, p: { workspace?: string; env?: Record<string, string> } = {}): string | null {
  if (deps.dataDir) return deps.dataDir;
  const ws = workspaceFor({ named: p.workspace, env: p.env, stateDir: dirname(deps.workersDir) });
  return ws ? join(ws, 'data') : null;
}

/**
 * Said to every worker because `hand land` refuses a commit whose message credits a tool or a
 * co-author, and Claude Code's own default adds such a line (the settings turn it off too).
 */
export const DONE_MEANS_LINE =
  'Done means: your commits and any pull request text say what changed and why, with no mention of an AI, an assistant or a co-author anywhere and no trailer lines crediting anyone.';

export function firstPrompt(briefPath: string, reportPath: string): string {
  return (
    `Read the brief at ${briefPath} in full before you start, then do the work it describes. ${DONE_MEANS_LINE} ` +
    `When you are done, or if you need a decision from a person, write your report to ${reportPath} and end your turn; ` +
    `${FIRST_PROMPT_CONVENTION}; never wait on an interactive prompt.`
  );
}

/** The worker as dispatched, with what its ~/.claude.json will get (null for a test's ports that seed nothing). */
export type DispatchedView = WorkerViewLike & { seeded: ClaudeJsonPlan | null; postureGap?: string; calibration?: string; agentChosenBy: AgentChosenBy };

export async function dispatchWorker(p: DispatchParams, deps: DispatchDeps): Promise<DispatchedView> {
  const existing = deps.fleet.view(p.id);
  if (existing && existing.condition !== 'gone') {
    throw workerExists(p.id, existing.stage);
  }
  // Cheap input checks first, so a typo is named before any repository is consulted.
  validateWorkerId(p.id);
  const briefText = loadBriefText(p.brief).text;
  // The daemon's HOME and the caller's may differ: the credentials under both are denied.
  validateReadPaths(p.readPaths, { homes: [homedir(), ...(p.env.HOME ? [p.env.HOME] : [])], stateDir: dirname(deps.workersDir) });
  const taskKind = parseTaskKind(p.taskKind);
  if (!existsSync(p.repo)) throw new UsageError('missing-repo', `repository ${resolve(p.repo)} does not exist. Pass --repo <path> to a registered git work tree.`, { repo: p.repo });
  // The top level and the git directory, asked of git once: everything after takes them from here.
  const repoPath = realpathSync(p.repo);
  const facts: RepoFacts = deps.repoFacts ? await deps.repoFacts(repoPath) : { top: await deps.repoTopLevel(repoPath), commonDir: null };
  const repo = facts.top;
  const project = deps.store.listProjects().find((pr) => pr.repo === repo);
  if (!project) {
    throw new RefusedError('unregistered-repo', `repository ${repo} is not registered. Register it first: hand annex ${repo}`, { repo });
  }
  // The agent is known only now: without --agent the project's default decides (agent-choice.ts).
  const { agent, by: agentChosenBy } = chooseAgent(p.agent, project);
  const hostName = p.host ?? deps.defaultHost?.(project.name) ?? 'local';
  // A far host: its checkout, its tmux, its agent (host check asks for that); nothing of this machine's.
  const far = hostName === 'local' ? null : await planFarHost(deps, p, hostName, agent, project);
  const backendProblem = far ? null : deps.backendProblem(p.backend);
  if (backendProblem) throw backendUnavailable(p.backend, backendProblem);
  const agentProblem = far ? null : deps.agentProblem(agent);
  if (agentProblem) {
    // A default the person did not type this time is named as the project's, with both ways out.
    const whose = agentChosenBy === 'project-default' ? ` (${agent} is project ${project.name}'s default agent: pass --agent <other>, or change it with hand project set ${project.name} --agent <name>)` : '';
    throw new RefusedError('agent-unavailable', `${agentProblem}${whose}`, { agent, agentChosenBy });
  }
  // Posture off needs kingshand's sandbox around the whole agent, whatever the agent (issue 37).
  const sandbox = !deps.sandbox ? null : far ? FAR_HOST_HAS_NO_SANDBOX : deps.sandbox();
  const noSandbox = sandboxRefusal(project.permissions ?? 'off', project.name, sandbox);
  if (noSandbox) throw noSandbox;
  // A far worker runs that host's agent, which this machine did not calibrate.
  const calibration = far ? null : ((await deps.calibration?.(agent)) ?? null);
  const misread = calibration?.standing === 'failed' ? calibration : null;
  if (misread && p.strict) {
    throw new RefusedError(
      'calibration-failed',
      `${misread.line}. --strict refuses an agent kingshand misreads; nothing was created. Calibrate it again (hand doctor --calibrate --agent ${agent}) after an upgrade or a fix, or dispatch without --strict to run it with that warning.`,
      { agent, version: misread.installed },
    );
  }
  const startProblem = far ? null : agentProfile(agent).dispatchProblem(project.permissions ?? 'off', project.name, { ...p.env, ...p.envAdd }, { sandboxed: sandbox?.ok === true });
  if (startProblem) throw startProblem;
  // Said at dispatch, never silently widened: what this agent cannot do of the posture.
  const postureGap = agentProfile(agent).postureGap(project.permissions ?? 'off', { sandboxed: sandbox?.ok === true });
  // Claude Code and the mock read ~/.claude.json (the mock mirrors Claude Code's trust check); Codex its own config.toml; a far worker's is seeded there.
  const seedsClaudeJson = !far && deps.seedsClaudeJson !== false && agentProfile(agent).seedsClaudeJson !== false;
  // In kingshand's sandbox the worker's agent has a config directory of its own (io/sandbox/agent-home.ts).
  const seeded = !seedsClaudeJson ? null : sandbox?.ok ? planSandboxedClaudeJson({ ...p.env, ...p.envAdd }, join(agentsDirOf(dirname(deps.workersDir), p.id), agent)) : planClaudeJson({ ...p.env, ...p.envAdd });
  const where = far?.target ?? null;
  const workRepo = far?.repo ?? repo;
  const dir = join(deps.workersDir, p.id);
  // All brief rules (section, read paths, standing files, index rule) are decided here, in memory.
  const plan = planBrief({ brief: p.brief, readPaths: p.readPaths, dataDir: dataDirOf(deps, p), project: project.name, briefDir: dir });
  const briefPath = plan.briefPath;
  const reportPath = reportPathOf(dir);
  // Anything at the name counts (a link, a FIFO): it would read as this worker's report.
  if (somethingAt(reportPath)) {
    throw new RefusedError('stale-report', `a report from an earlier worker named ${p.id} exists at ${reportPath}; it would read as this worker's report. Move it away or pick another id.`, { reportPath });
  }
  // git answers where the worker's checkout is (git-place.ts): here, or on its host.
  const base = await onHost(where, () => deps.resolveBase(workRepo));
  await onHost(where, () => checkWorktreeSlot(workRepo, p.id));
  // no-mistakes postures: gate initialised (or refused), CI preflight, the gate's brief section.
  // The caller's environment finds gh for the CI preflight (never the daemon's start-time PATH);
  // a far worker's gate is its far checkout's, asked there with the far account's gh.
  const gatePlan = await onHost(where, () => reviewGatePlan({ project, repo: workRepo, brief: briefText, taskKind, env: { ...p.env, ...p.envAdd }, quick: p.quick === true, readOnly: p.readOnly === true }));
  const agentVersion = far ? far.agentVersion : ((await deps.agentVersion?.(agent)) ?? null);

  // Validation is over: from here on things are created, and undone if dispatch fails.
  // The worker's brief.md and the daemon's own copy hold the same text, the gate's section included.
  const created = writeBriefPlan({ ...plan, text: withGateSection(plan.text, gatePlan) });
  try {
    if (gatePlan) created.push(writeGatePlan(plan.briefPath, gatePlan));
  } catch (err) {
    undoBriefWrite(created);
    throw err;
  }
  const intent: WorkerIntent = {
    id: p.id,
    project: project.name,
    repo: workRepo,
    worktree: join(workRepo, '.claude', 'worktrees', p.id),
    branch: `worktree-${p.id}`,
    base,
    backend: p.backend,
    agent,
    agentVersion,
    briefPath,
    reportPath,
    createdAt: Date.now(),
    ...(far && { host: far.host, farDir: far.farDir }),
  };
  // Only the allow-list is kept, even in memory: a caller's AWS/GitHub/npm token never reaches a worker.
  deps.rememberCallerEnv(p.id, allowListEnv(p.env, agentProfile(agent).workerEnv).kept, p.envAdd);
  try {
    // The dispatch gate: read from the stored project (a boolean), never guessed. A non-yolo worker
    // rests at brief approval with only its brief directory made.
    const briefGate = project.yolo !== true;
    const start = () => deps.fleet.dispatch({ intent, stallMs: p.stallMs, unclassifiedMs: p.unclassifiedMs, firstPrompt: far ? firstPrompt(`${far.farDir}/brief.md`, `${far.farDir}/${reportRelativePath(intent)}`) : firstPrompt(briefPath, reportPath), briefGate });
    // A local worker's preparation takes the facts asked above (a far one's repository is its host's: asked there).
    const view = !far && deps.withRepoFacts ? await deps.withRepoFacts(p.id, facts, start) : await start();
    return { ...view, seeded, agentChosenBy, ...(postureGap ? { postureGap } : {}), ...(misread ? { calibration: `${misread.line} (dispatched anyway; --strict refuses)` } : {}) };
  } catch (err) {
    // Only what this dispatch wrote goes: an earlier worker's brief directory and report stay.
    if (!deps.fleet.view(p.id)) undoBriefWrite(created);
    throw err;
  }
}

async function planFarHost(deps: DispatchDeps, p: DispatchParams, host: string, agent: string, project: ProjectRecord): Promise<FarPlace> {
  if (!deps.planFar) throw new UsageError('no-such-host', `this daemon reaches no host but local; --host ${host} cannot be used.`, { host });
  return deps.planFar({ id: p.id, backend: p.backend, host, agent }, project);
}

