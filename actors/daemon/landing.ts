/**
 * The landing gate as request handlers: `land` gathers the evidence and opens the gate,
 * `approve` performs the landing the project's posture allows and tears the worker down,
 * `reject` closes the gate with a reason. Until the worker machine has a gate state, open gates
 * live here in memory, keyed by worker id (a daemon restart closes them: land again).
 * Under yolo the gate is skipped, never the checks: the evidence must still be clean.
 */
import { existsSync } from 'node:fs';
import { RefusedError, UsageError } from '../../io/errors.ts';
import {
  evidenceRefusal,
  gatherLandingEvidence,
  landLocalOnly,
  openDirectPr,
  planDirectPr,
  remoteHasBranch,
  teardownWorker,
  type LandingEvidence,
  type TeardownOutcome,
} from '../../io/git/index.ts';
import type { FleetStore, ProjectRecord, WorkerRow } from '../../persistence/types.ts';
import type { FleetHostApi } from './fleet-api.ts';
import type { Handler } from './server.ts';

export interface LandingDeps {
  store: FleetStore;
  fleet: FleetHostApi;
  /** Environment used to find `gh` (defaults to the daemon's own). */
  env?: Record<string, string | undefined>;
  now?: () => number;
  /** Open gates; pass a shared map so `hand status` can show what each gate waits for. */
  gates?: Map<string, OpenLandingGate>;
}

export interface OpenLandingGate {
  id: string;
  openedAt: number;
  posture: ProjectRecord['posture'];
  evidence: LandingEvidence;
}

const STOPPED = new Set(['stopped', 'gone', 'lost']);
const LANDABLE: ProjectRecord['posture'][] = ['local-only', 'direct-PR'];

function idParam(params: Record<string, unknown>): string {
  const v = params.id;
  if (typeof v === 'string' && v.length > 0) return v;
  throw new UsageError('bad-request', 'missing or invalid id', { key: 'id' });
}

export function waitingForText(id: string): string {
  return `hand approve ${id} | hand reject ${id} --reason <why>`;
}

export function landingHandlers(deps: LandingDeps): Record<string, Handler> {
  const { store, fleet } = deps;
  const now = deps.now ?? Date.now;
  const gates = deps.gates ?? new Map<string, OpenLandingGate>();

  function workerAndProject(id: string): { row: WorkerRow; project: ProjectRecord } {
    const row = store.getWorker(id);
    if (!row) throw new RefusedError('unknown-worker', `no worker named ${JSON.stringify(id)}. \`hand status\` lists the workers.`, { id });
    const project = store.getProject(row.project);
    if (!project) throw new RefusedError('unregistered-repo', `worker ${id} belongs to project ${row.project}, which is no longer registered; nothing is landed into an unregistered repository.`, { id });
    return { row, project };
  }

  /** Everything `land` refuses on, before any evidence is shown or any gate opened. */
  async function checkedEvidence(row: WorkerRow, project: ProjectRecord): Promise<LandingEvidence> {
    const view = fleet.view(row.id);
    if (view?.waitingOn) {
      throw new RefusedError('worker-parked', `worker ${row.id} is parked on an open decision (${view.waitingOn}); it is never landed or torn down while that is open. Answer it first.`, { id: row.id, waitingOn: view.waitingOn });
    }
    if (!existsSync(row.reportPath)) {
      throw new RefusedError('no-report', `worker ${row.id} has not written its report (${row.reportPath}); a worker without a report is not done. Read its screen (hand read ${row.id}).`, { id: row.id });
    }
    if (view && view.live && view.state === 'working') {
      throw new RefusedError('worker-working', `worker ${row.id} is still working; wait for it (hand wait ${row.id} --until settled), then land.`, { id: row.id });
    }
    if (!LANDABLE.includes(project.posture)) {
      throw new RefusedError(
        'posture-not-landable',
        `project ${project.name} is ${project.posture}: its work lands through the no-mistakes review gate, which kingshand does not drive yet. Run the gate in ${row.worktree}, or change the project's posture.`,
        { posture: project.posture },
      );
    }
    const evidence = await gatherLandingEvidence({ repo: row.repo, branch: row.branch, base: row.base, worktree: row.worktree });
    const refusal = evidenceRefusal(evidence);
    if (refusal) throw new RefusedError(refusal.code, refusal.message, { ...refusal.details, evidence });
    // Name a missing gh or origin now, not after someone approved.
    if (project.posture === 'direct-PR') await planDirectPr(evidence, deps.env ?? process.env);
    return evidence;
  }

  async function teardown(row: WorkerRow): Promise<TeardownOutcome> {
    return teardownWorker(
      { repo: row.repo, worktree: row.worktree },
      {
        // The fleet host closes the pane as part of a clean stop.
        stop: async () => (fleet.view(row.id) ? STOPPED.has((await fleet.stop(row.id)).view.stage) : true),
      },
    );
  }

  async function perform(row: WorkerRow, project: ProjectRecord, evidence: LandingEvidence) {
    if (project.posture === 'local-only') {
      const landed = await landLocalOnly({ repo: row.repo, branch: row.branch, base: row.base, worktree: row.worktree });
      return { landed: { posture: project.posture, ...landed }, teardown: await teardown(row) };
    }
    const plan = await planDirectPr(evidence, deps.env ?? process.env);
    const { url } = await openDirectPr(plan);
    // Torn down only once the branch is confirmed on the remote.
    const onRemote = await remoteHasBranch(row.repo, row.branch);
    const td: TeardownOutcome = onRemote ? await teardown(row) : { done: false, reason: `${row.branch} is not on origin yet; the worktree was kept`, steps: [] };
    return { landed: { posture: project.posture, pr: url, pushed: onRemote }, teardown: td };
  }

  const summary = (e: LandingEvidence) => ({ base: e.base, branch: e.branch, verdict: e.verdict, diffStat: e.diffStat, log: e.log, commits: e.commits.length });

  return {
    async land(params) {
      const id = idParam(params);
      const { row, project } = workerAndProject(id);
      const evidence = await checkedEvidence(row, project);
      if (project.yolo === true) {
        gates.delete(id);
        return { id, gate: 'skipped-yolo', evidence: summary(evidence), ...(await perform(row, project, evidence)) };
      }
      gates.set(id, { id, openedAt: now(), posture: project.posture, evidence });
      return { id, gate: 'open', waitingFor: waitingForText(id), posture: project.posture, evidence: summary(evidence) };
    },
    async approve(params) {
      const id = idParam(params);
      const gate = gates.get(id);
      if (!gate) throw new RefusedError('no-open-gate', `no landing gate is open for ${id}; open one with hand land ${id}.`, { id });
      const { row, project } = workerAndProject(id);
      const evidence = await checkedEvidence(row, project);
      if (evidence.headSha !== gate.evidence.headSha || project.posture !== gate.posture) {
        gates.delete(id);
        throw new RefusedError('gate-evidence-changed', `${row.branch} or the project's posture changed since the gate opened, so the approval does not cover it; nothing was landed. Run hand land ${id} again.`, { id });
      }
      gates.delete(id);
      return { id, gate: 'approved', evidence: summary(evidence), ...(await perform(row, project, evidence)) };
    },
    async reject(params) {
      const id = idParam(params);
      const reason = typeof params.reason === 'string' ? params.reason.trim() : '';
      if (!reason) throw new UsageError('reason-required', `a rejection needs a reason the worker can act on: hand reject ${id} --reason "<why>".`, { id });
      if (!gates.has(id)) throw new RefusedError('no-open-gate', `no landing gate is open for ${id}; nothing to reject.`, { id });
      gates.delete(id);
      return { id, gate: 'rejected', reason };
    },
    async landings() {
      return [...gates.values()].map((g) => ({ id: g.id, openedAt: new Date(g.openedAt).toISOString(), posture: g.posture, waitingFor: waitingForText(g.id), ...summary(g.evidence) }));
    },
  };
}
