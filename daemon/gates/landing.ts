/**
 * The gates as request handlers, over the worker machine's own gate states
 * (docs/2026-11-30-gates-as-actor-states.md): `land` checks a done worker and gathers the
 * evidence, then opens its landing gate (the evidence goes into the machine's context, so the
 * gate survives a daemon restart); `approve`/`reject` decide whichever gate is open — the brief
 * (dispatch) gate or the landing gate. The landing itself runs inside the machine, through the
 * port made by `createLandingPort` (the io/git landing functions). Under yolo the landing gate is
 * skipped, never the checks: the evidence must still be clean.
 */
import { howItApplies, rebaseOnto } from '../../io/git/landing-preview.ts';
import { quoteWorker } from '../../contract/worker-words.ts';
import { worktreeGone, worktreeMissingError } from '../fleet/worktree-presence.ts';
import { onHost } from '../../io/git/git-place.ts';
import type { SshTarget } from '../../io/ssh/ssh-command.ts';
import { probeUntrustedFile, refusalLine } from '../../io/fs/untrusted-file.ts';
import { RefusedError } from '../../contract/errors.ts';
import { LANDABLE_POSTURES } from '../../contract/vocabulary.ts';
import { unknownWorker, workerNotDone } from '../../contract/refusals.ts';
import {
  evidenceRefusal,
  gatherLandingEvidence,
  landingTarget,
  landLocalOnly,
  openDirectPr,
  planDirectPr,
  remoteHasBranch,
  removeWorktree,
  type LandingEvidence,
} from '../../io/git/index.ts';
import type { FleetStore, ProjectRecord, WorkerIntent, WorkerRow } from '../../persistence/types.ts';
import type { LandingSummary } from '../../machines/worker.types.ts';
import type { LandingPort } from '../../actors/ports.ts';
import { waitingForText } from '../../actors/gates.ts';
import type { FleetHostApi, WorkerViewLike } from '../../actors/fleet-api.ts';
import { checkingItsReport } from '../../actors/wait-report.ts';
import { waitFor } from '../../actors/wait-for.ts';
import type { MethodTable } from '../../contract/protocol.ts';
import type { LandingEvidence as ShownEvidence, LandingOutcome, RejectResult } from '../../contract/methods.ts';
import { createdAfterApproval } from './gate-truth.ts';
import { noMistakesLanding } from './review-gate-landing.ts';
import { isQuickLanding, QUICK_MARKER, readDelivery } from './review-gate.ts';
import { releaseGateOutwardStep } from './gate-outward.ts';
import { baseMove, baseMovedRefusal, recordLanded } from '../fleet/base-watch.ts';
import type { BaseTips } from '../../persistence/base-tips.ts';
import type { GateRunState } from '../../io/gate/gate-run.ts';
import { landingAgentSettings } from '../../io/agent/project-settings/index.ts';
import type { LandingAgentSettings } from '../../contract/methods/agent-settings.ts';
import { acceptCommand, agentSettingsNeedWord, wordCovers } from './agent-settings-word.ts';
import { browserChecksEvidence } from '../../io/browser/checks-evidence.ts';

export { waitingForText } from '../../actors/gates.ts';

export interface LandingDeps {
  store: FleetStore;
  fleet: FleetHostApi;
  /** The daemon's environment: where `gh` is looked for when the caller sent no PATH. */
  env: Record<string, string | undefined>;
  /** Shared with the landing port: the PATH of the person's last land/approve per worker. */
  callerPaths?: CallerPaths;
  /** The recorded base tips: land refuses while the base stands moved outside a landing. */
  baseTips?: BaseTips;
  /** Where a worker's git runs: its far host's ssh target, or null for this machine (absent: always here). */
  placeOf?: PlaceOf;
  log?: (obj: Record<string, unknown>, msg: string) => void;
}

/** A worker's host as io/git's place (git-place.ts): null = this machine. */
export type PlaceOf = (w: { host?: string }) => SshTarget | null;

/**
 * The PATH each worker's last `hand land` / `hand approve` came with. The landing itself runs
 * inside the worker's machine (through the port), so the approval's PATH is handed over here
 * rather than through the machine; gh installed after the daemon started is then found.
 */
export type CallerPaths = Map<string, string>;

function envWithPath(base: Record<string, string | undefined>, path: string | undefined): Record<string, string | undefined> {
  return path ? { ...base, PATH: path } : base;
}

/**
 * How long `hand land` lets a worker that is still finding or reading its report (see
 * checkingItsReport: moments, not places) finish that step before judging it.
 */
export const LAND_SETTLE_MS = 5_000;

function projectOf(store: Pick<FleetStore, 'getProject'>, id: string, projectName: string): ProjectRecord {
  const project = store.getProject(projectName);
  if (!project) throw new RefusedError('unregistered-repo', `worker ${id} belongs to project ${projectName}, which is no longer registered; nothing is landed into an unregistered repository.`, { id });
  return project;
}

/**
 * The project as this worker's task ships: a no-mistakes-prod-only task classified internal
 * (delivery.json beside its brief) ships direct-PR, so it lands as a direct-PR project does —
 * it was refused as "not wired here yet", leaving the person to push by hand.
 */
export function shippingProject(project: ProjectRecord, briefPath: string): ProjectRecord {
  const delivery = readDelivery(briefPath);
  // A quick dispatch (parley) on either no-mistakes posture skipped the gate: it ships direct-PR too.
  const gateSkipped = project.posture === 'no-mistakes-prod-only' || (project.posture === 'no-mistakes' && delivery?.quick === true);
  if (!gateSkipped || delivery?.ships !== 'direct-PR') return project;
  return { ...project, posture: 'direct-PR' };
}

/** A no-mistakes task with yolo off: its gate run held the outward step for the landing approval. */
const heldByTheGate = (p: ProjectRecord) => (p.posture === 'no-mistakes' || p.posture === 'no-mistakes-prod-only') && p.yolo !== true;

/** The evidence with what it changes in the repository's own agent settings, read from the commits. */
type FullEvidence = LandingEvidence & { agentSettings: LandingAgentSettings };

/** Clean evidence or the refusal its verdict stands for. */
async function cleanEvidence(w: Pick<WorkerIntent, 'repo' | 'branch' | 'base' | 'worktree'>): Promise<FullEvidence> {
  const evidence = await gatherLandingEvidence({ repo: w.repo, branch: w.branch, base: w.base, worktree: w.worktree });
  const refusal = evidenceRefusal(evidence);
  if (refusal) throw new RefusedError(refusal.code, refusal.message, { ...refusal.details, evidence });
  // From the trees of base...head, never the worktree: a file hidden with --skip-worktree is in the commit that lands.
  return { ...evidence, agentSettings: await landingAgentSettings(w.repo, evidence.baseSha, evidence.headSha) };
}

function changedSinceGate(id: string, branch: string): RefusedError {
  return new RefusedError('gate-evidence-changed', `${branch} or the project's posture changed since the landing gate opened, so the approval does not cover it; nothing was landed. Run hand land ${id} to refresh the evidence, then approve again.`, { id });
}

/** What the machine keeps of the evidence (plain data, persisted with the worker). */
export function landingSummary(posture: string, e: LandingEvidence & { agentSettings?: LandingAgentSettings }): Omit<LandingSummary, 'approvedBy' | 'openedAt'> {
  return { posture, base: e.base, branch: e.branch, baseSha: e.baseSha, headSha: e.headSha, verdict: e.verdict, diffStat: e.diffStat, log: e.log, commits: e.commits.length, ...(e.agentSettings ? { agentSettings: e.agentSettings } : {}) };
}

/**
 * The landing port the worker machine calls once a landing is approved: it re-reads the project
 * and re-gathers the evidence (an approval covers exactly the head the person saw), then lands
 * per the posture. Teardown is the machine's: its own stop, then `removeWorktree` below.
 */
export function createLandingPort(deps: { store: Pick<FleetStore, 'getProject'>; env: Record<string, string | undefined>; callerPaths?: CallerPaths; baseTips?: BaseTips; placeOf?: PlaceOf }): LandingPort {
  const here = (intent: WorkerIntent) => deps.placeOf?.(intent) ?? null;
  const port: LandingPort = {
    async land(intent, approved) {
      const env = envWithPath(deps.env, deps.callerPaths?.get(intent.id));
      const project = shippingProject(projectOf(deps.store, intent.id, intent.project), intent.briefPath);
      if (project.posture !== approved.posture || !(LANDABLE_POSTURES.includes(project.posture) || heldByTheGate(project))) throw changedSinceGate(intent.id, intent.branch);
      const evidence = await cleanEvidence(intent);
      if (evidence.headSha !== approved.headSha) throw changedSinceGate(intent.id, intent.branch);
      // The daemon's own check, whatever face approved: a change to the repository's agent
      // settings lands only under the person's word for exactly these changes.
      if (!wordCovers(evidence.agentSettings, approved.agentSettingsAccepted)) throw agentSettingsNeedWord(intent.id, evidence.agentSettings, approved.approvedBy === 'yolo' ? 'land' : 'approve');
      if (heldByTheGate(project)) {
        // The approval releases the gate's held outward step: the gate pushes and opens the PR.
        const out = await releaseGateOutwardStep(intent, env);
        const delivered = out.pushed && out.pr !== null;
        return { posture: project.posture, detail: { ...out }, tearDown: delivered, ...(delivered ? {} : { keptBecause: `the gate has not reported a PR for ${intent.branch} yet (run ${out.runId ?? '?'}); the worktree was kept` }) };
      }
      if (project.posture === 'local-only') {
        // The approval covers the base the person saw; a base moved meanwhile by something else is not landed onto.
        const moved = deps.baseTips ? await baseMove(deps.baseTips, intent.repo, intent.base) : null;
        if (moved) throw baseMovedRefusal(moved, project.name, intent.id);
        const landed = await landLocalOnly({ repo: intent.repo, branch: intent.branch, base: intent.base, worktree: intent.worktree });
        if (deps.baseTips) recordLanded(deps.baseTips, intent.repo, landed.target, landed.to, Date.now());
        return { posture: project.posture, detail: { ...landed }, tearDown: true };
      }
      // A quick dispatch's pull request is a draft: no review gate ran, and a forge merges no draft.
      const quick = isQuickLanding(intent.briefPath, intent.reportPath);
      const plan = await planDirectPr(evidence, env, { draft: quick, note: quick ? QUICK_MARKER : null });
      const { url } = await openDirectPr(plan);
      // Torn down only once the branch is confirmed on the remote.
      const pushed = await remoteHasBranch(intent.repo, intent.branch);
      return { posture: project.posture, detail: { pr: url, pushed, ...(quick ? { draft: true, quick: true } : {}) }, tearDown: pushed, ...(pushed ? {} : { keptBecause: `${intent.branch} is not on origin yet; the worktree was kept` }) };
    },
    async removeWorktree(intent) {
      try {
        await removeWorktree({ repo: intent.repo, worktree: intent.worktree });
        return { problem: null };
      } catch (err) {
        // Landed, but git could not remove the worktree (immutable, read-only): the state and
        // the way out, so the person is not left with a directory nobody names (issue 25 #4).
        const wt = intent.worktree;
        return {
          problem:
            `worktree kept: ${(err as Error).message} The work is landed; ${wt} is still on disk. ` +
            `Make it removable (\`lsattr -d ${wt}\`; \`chattr -R -i ${wt}\` or restore write permission on it and its parent), then run \`git -C ${intent.repo} worktree remove ${wt}\` and \`git -C ${intent.repo} worktree prune\`.`,
        };
      }
    },
  };
  // A far worker lands on its host: every git call of both steps runs there.
  return {
    land: (intent, approved, signal) => onHost(here(intent), () => port.land(intent, approved, signal)),
    removeWorktree: (intent) => onHost(here(intent), () => port.removeWorktree(intent)),
  };
}

/** The landing methods before the rules around them (gate-methods.ts); reject answers before its item is given back. */
export type LandingMethods = Pick<MethodTable, 'land' | 'approve' | 'landings'> & { reject(params: Parameters<MethodTable['reject']>[0]): Promise<Omit<RejectResult, 'item'>> };

export function landingHandlers(deps: LandingDeps): LandingMethods {
  const { store, fleet } = deps;

  function workerAndProject(id: string): { row: WorkerRow; project: ProjectRecord; view: WorkerViewLike | null } {
    const row = store.getWorker(id);
    if (!row) throw unknownWorker(id);
    return { row, project: shippingProject(projectOf(store, id, row.project), row.briefPath), view: fleet.view(id) };
  }

  /** Everything `land` refuses on, before any evidence is shown or any gate opened. */
  async function checkedEvidence(row: WorkerRow, project: ProjectRecord, view: WorkerViewLike | null, env: Record<string, string | undefined>): Promise<FullEvidence & { gate: GateRunState | null }> {
    // A read-only worker (counsel) has nothing to land: its report is the result, and closing it ends it.
    if (readDelivery(row.briefPath)?.readOnly === true) {
      throw new RefusedError('read-only-worker', `worker ${row.id} was dispatched read-only: it has nothing to land, its report is the result (hand report ${row.id}). End it with hand close ${row.id}.`, { id: row.id, fix: `hand close ${row.id}` });
    }
    // First: without its worktree the evidence below would read as "no changes".
    if (await worktreeGone({ marks: view?.marks ?? [], worktree: row.worktree })) throw worktreeMissingError(row);
    if (view?.waitingOn) {
      throw new RefusedError('worker-parked', `worker ${row.id} is parked on an open decision (${quoteWorker(row.id, view.waitingOn)}); it is never landed or torn down while that is open. Answer it first.`, { id: row.id, waitingOn: view.waitingOn });
    }
    // The report is the worker's: looked at without following a link or blocking (io/fs/untrusted-file.ts).
    const report = await probeUntrustedFile(row.reportPath);
    if (report.kind === 'refused') {
      throw new RefusedError('report-refused', `worker ${row.id}'s report was ${refusalLine(report)} (${row.reportPath}); a worker whose report the daemon will not read is not done. Have it write its report again as a plain file (hand send ${row.id} …), then land.`, { id: row.id, refused: report.refused });
    }
    if (report.kind === 'absent') {
      throw new RefusedError('no-report', `worker ${row.id} has not written its report (${row.reportPath}); a worker without a report is not done. Read its screen (hand read ${row.id}).`, { id: row.id });
    }
    if (view && view.live && view.state === 'working') {
      throw new RefusedError('worker-working', `worker ${row.id} is still working; wait for it (hand wait ${row.id} --until settled), then land.`, { id: row.id });
    }
    let gate: GateRunState | null = null;
    if (!LANDABLE_POSTURES.includes(project.posture)) {
      // The review gate's run decides (daemon/gates/review-gate.ts): findings come back listed; a
      // passed run under yolo names its PR; a passed held run (yolo off) opens the landing gate.
      gate = await noMistakesLanding(row, env, project.yolo === true);
    }
    if (!view || !view.marks.includes('landable')) {
      throw workerNotDone(row.id, view?.stage ?? 'unknown');
    }
    const evidence = await cleanEvidence(row);
    // Name a missing gh or origin now, not after someone approved.
    if (project.posture === 'direct-PR') await planDirectPr(evidence, env);
    return { ...evidence, gate };
  }

  const summary = (l: Pick<LandingSummary, 'base' | 'branch' | 'verdict' | 'diffStat' | 'log' | 'commits' | 'agentSettings' | 'browserChecks'>): ShownEvidence => ({
    base: l.base, branch: l.branch, verdict: l.verdict, diffStat: l.diffStat, log: l.log, commits: l.commits, ...(l.agentSettings ? { agentSettings: l.agentSettings } : {}),
    ...(l.browserChecks ? { browserChecks: l.browserChecks } : {}),
  });
  /** What the open gate waits for: the person's word on agent settings, when the landing changes them. */
  const waitingFor = (id: string, s?: LandingAgentSettings) => (s?.needsWord ? `${acceptCommand(id, 'approve')} | hand reject ${id} --reason <why>` : waitingForText(id));

  /** Where a landing ended, as the caller sees it (a refused landing is a refusal again). */
  function outcome(id: string, v: WorkerViewLike, gate: LandingOutcome['gate']): Omit<LandingOutcome, 'evidence'> {
    if (v.landingFailure && !v.landed) throw new RefusedError(v.landingFailure.code, v.landingFailure.message, { id, stage: v.stage });
    const tornDown = v.marks.includes('landed') && !v.problem;
    const teardown = tornDown
      ? { done: true as const, steps: ['stop', 'close-pane', 'worktree-remove+prune'] }
      : { done: false as const, reason: v.condition === 'stuck' ? 'the worker did not stop; its pane and worktree were left alone (never killed, never removed under a running agent). hand stop it, and the worktree goes once it has left.' : (v.problem ?? `stage ${v.stage}`) };
    return { id, gate, stage: v.stage, ...(v.landed ? { landed: { posture: v.landed.posture, ...v.landed.detail } } : {}), teardown };
  }

  /** Resolves once the worker is no longer checking its report (or LAND_SETTLE_MS passed). */
  async function pastCheckingTheReport(id: string): Promise<void> {
    if (!checkingItsReport(fleet.view(id))) return;
    await waitFor(fleet, id, (v) => !checkingItsReport(v), { timeoutMs: LAND_SETTLE_MS });
  }

  /** The caller's PATH (sent by the CLI), kept for the port that lands this worker. */
  function rememberPath(id: string, path: string | undefined): string | undefined {
    if (path) deps.callerPaths?.set(id, path);
    return path;
  }

  return {
    async land(p) {
      const row = store.getWorker(p.id);
      return onHost(row ? (deps.placeOf?.(row) ?? null) : null, () => land(p));
    },
    async approve(p) {
      const row = store.getWorker(p.id);
      return onHost(row ? (deps.placeOf?.(row) ?? null) : null, () => approve(p));
    },
    async reject({ id, reason }) {
      if (!fleet.view(id)) throw unknownWorker(id);
      const v = await fleet.reject(id, reason);
      return { id, gate: 'rejected', stage: v.stage, reason };
    },
    async landings() {
      return fleet.views()
        .filter((v) => v.marks.includes('landing-gate') && v.landing)
        .map((v) => ({ id: v.id, openedAt: new Date(v.landing!.openedAt).toISOString(), posture: v.landing!.posture, waitingFor: waitingFor(v.id, v.landing!.agentSettings), ...summary(v.landing!) }));
    },
  };

  async function land({ id, path, acceptAgentSettings, rebase }: Parameters<MethodTable['land']>[0]): ReturnType<MethodTable['land']> {
    await pastCheckingTheReport(id);
    const { row, project, view } = workerAndProject(id);
    const env = envWithPath(deps.env, rememberPath(id, path));
    // A base that moved outside a landing (a worker's update-ref) is the person's to judge first.
    const moved = project.posture === 'local-only' && deps.baseTips ? await baseMove(deps.baseTips, row.repo, row.base) : null;
    if (moved) throw baseMovedRefusal(moved, project.name, id);
    // The base moved on by a landing since this branch was cut (the second landing in a
    // repository): how the branch applies now, and the rebase on the person's word.
    if (project.posture === 'local-only') await meetTheBase(row, rebase === true);
    const evidence = await checkedEvidence(row, project, view, env);
    const s = landingSummary(project.posture, evidence);
    // The browser checks its brief asked for, judged from the worker's record (issue 40): shown, not a refusal.
    const checks = await browserChecksEvidence(row);
    if (checks) s.browserChecks = checks;
    // yolo is a boolean in the store: anything but true waits for a person.
    const yolo = project.yolo === true;
    // yolo skips the gate, never the person's word on the repository's agent settings: given
    // here it lands with them, absent it nothing is opened or landed.
    if (yolo && evidence.agentSettings.needsWord) {
      if (acceptAgentSettings !== true) throw agentSettingsNeedWord(id, evidence.agentSettings, 'land');
      s.agentSettingsAccepted = evidence.agentSettings.digest;
    }
    const v = await fleet.openLanding(id, s, { yolo });
    if (yolo) return { ...outcome(id, v, 'skipped-yolo'), evidence: summary(s) };
    // The gate's result and evidence, shown before the person approves its outward step.
    const gateRun = evidence.gate ? { runId: evidence.gate.runId, outcome: evidence.gate.outcome, detail: evidence.gate.detail, releasedByApproval: 'push and pull request' } : null;
    return { id, gate: 'open', stage: v.stage, waitingFor: waitingFor(id, evidence.agentSettings), posture: project.posture, evidence: summary(s), ...(gateRun ? { gateRun } : {}) };
  }

  /** Fast-forward: nothing to do. Clean: rebased with `rebase`, else refused saying so. Conflicts: refused naming them. */
  async function meetTheBase(row: WorkerRow, rebase: boolean): Promise<void> {
    const target = landingTarget(row.base);
    const applies = await howItApplies(row.repo, row.branch, target);
    if (applies.kind === 'fast-forward' || applies.kind === 'unknown') return;
    const since = `${target} moved on by ${applies.behind} commit(s) since ${row.branch} was cut, so it cannot be fast-forwarded`;
    if (applies.kind === 'conflicts') {
      const files = applies.files.slice(0, 12).join(', ');
      throw new RefusedError('landing-conflicts', `${since}, and it conflicts with ${target} as it is now in: ${files}; nothing was landed or changed. Ask the worker to rebase and resolve them — with the person's approval: hand send ${row.id} "${target} moved on since you started: rebase your branch onto ${target}, resolve the conflicts in ${files}, run the checks again and commit" — then hand land ${row.id} again.`, { id: row.id, target, behind: applies.behind, conflicts: applies.files });
    }
    if (!rebase) {
      throw new RefusedError('landing-needs-rebase', `${since}. It applies cleanly onto ${target} as it is now (git merge-tree); nothing was landed or changed. Land it with hand land ${row.id} --rebase: the branch is rebased onto ${target} in its worktree (no merge commit, nothing forced), then the gate opens with the evidence taken again.`, { id: row.id, target, behind: applies.behind, applies: 'clean' });
    }
    const r = await rebaseOnto(row.worktree, row.branch, target);
    deps.log?.({ id: row.id, branch: row.branch, target, from: r.from, to: r.to }, 'worker branch rebased onto its moved base before landing');
  }

  async function approve({ id, path, acceptAgentSettings }: Parameters<MethodTable['approve']>[0]): ReturnType<MethodTable['approve']> {
    const view = fleet.view(id);
    if (!view) throw unknownWorker(id);
    rememberPath(id, path);
    if (view.marks.includes('landing-gate')) {
      // Checked here too so the refusal reaches the caller with the gate still open.
      const { row, project } = workerAndProject(id);
      const evidence = await cleanEvidence(row);
      if (evidence.headSha !== view.landing?.headSha || project.posture !== view.landing?.posture) throw changedSinceGate(id, row.branch);
      // The word covers what the gate showed: agent-settings changes read differently now (the base moved) are shown again first.
      const shown = view.landing?.agentSettings;
      if (shown && shown.digest !== evidence.agentSettings.digest) throw changedSinceGate(id, row.branch);
      // Refused here, with the gate still open, before the machine is asked (the port checks again).
      const word = evidence.agentSettings.needsWord;
      if (word && acceptAgentSettings !== true) throw agentSettingsNeedWord(id, evidence.agentSettings, 'approve');
      const v = await fleet.approve(id, word ? { acceptedAgentSettings: evidence.agentSettings.digest } : undefined);
      return { ...outcome(id, v, 'approved'), evidence: summary({ ...view.landing, agentSettings: evidence.agentSettings }) };
    }
    // The brief gate (or no gate: the fleet host refuses, naming the stage).
    const v = await fleet.approve(id);
    // Answer with what now exists, not what was asked for (daemon/gates/gate-truth.ts).
    const created = await createdAfterApproval(fleet, id);
    return { id, gate: 'brief-approved', stage: (created.stage as string | undefined) ?? v.stage, worktree: v.worktree, branch: v.branch, created };
  }
}
