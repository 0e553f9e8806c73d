/**
 * Request handlers: one function per method. Each parses its wire params once (params.ts) into
 * a typed request, calls the fleet host or the store, and returns plain JSON.
 */
import { isPrototypeName, prototypeNameWhy } from '../../contract/plain-name.ts';
import { basename, resolve } from 'node:path';
import { existsSync, realpathSync } from 'node:fs';
import { RefusedError, UsageError } from '../../contract/errors.ts';
import type { FleetStore, ProjectRecord } from '../../persistence/types.ts';
import { unknownWorker } from '../../contract/refusals.ts';
import type { FleetHostApi, WorkerViewLike } from '../../actors/fleet-api.ts';
import type { MethodTable } from '../../contract/protocol.ts';
import type { DispatchAnswer, DispatchParams, PermissionPosture, StatusParams, StatusRow } from '../../contract/methods.ts';
import { waitForWorker, conditionOf } from '../../actors/wait-report.ts';
import { waitFor } from '../../actors/wait-for.ts';
import { tookThePrompt } from '../../actors/took-the-prompt.ts';
import { dispatchRequest } from '../params.ts';
import { parseOneKey } from '../../io/terminal/keys.ts';
import { answerDialog } from './answer.ts';
import { worktreeMissing } from './worktree-presence.ts';
import { dispatchWorker, type DispatchDeps } from './dispatch.ts';
import { readFirstCopies } from './read-first-copies.ts';
import { annexDefaultAgent, annexPermissions, postureOfProject } from './project-handlers.ts';
import { gateHeldWorkerIds, liveWorkerIds, stopAdvice } from '../daemon-stop.ts';
import { gatedDispatchFacts } from '../gates/gate-truth.ts';
import { readDelivery } from '../gates/review-gate.ts';
import { watchNeedsYou, type NeedsYouSource } from './watch-needs-you.ts';
import type { BaseNotices } from './base-notices.ts';
import { registrationProblem } from '../../io/git/posture-checks.ts';
import { allowListEnv } from '../../io/terminal/worker-env.ts';
import { agentProfile } from '../../io/agent/profiles/index.ts';
import { quoteDialog, quotedOrEmpty, quotedOrNull, quoteProblem, quoteReport, quoteScreen, quoteWorker } from '../../contract/worker-words.ts';
import { readUntrustedFile, refusalLine } from '../../io/fs/untrusted-file.ts';
import { askedOf } from '../../io/screen/asked.ts';
import { REPORT_READ_CAP } from '../../io/brief/worker-layout.ts';
import { repoAgentSettings } from '../../io/agent/project-settings/index.ts';
import type { OverlapReader } from './overlaps.ts';
import { proposePosture } from '../../io/git/posture-proposal.ts';

/** How long a status waits for the overlap reads (overlaps.ts) before it answers without the ones still running. */
export const STATUS_OVERLAP_WAIT_MS = 300;

export interface HandlerDeps extends DispatchDeps {
  store: FleetStore;
  fleet: FleetHostApi;
  startedAt: number;
  /** The daemon process's pid (ping and shutdown report it). */
  pid: number;
  home: string;
  socket: string;
  /** The daemon's environment: the caller's stands in for it only when a request carries one. */
  env: Record<string, string | undefined>;
  /** Moves of a base branch outside a landing, for `watch --needs-you` (base-notices.ts). */
  baseNotices?: BaseNotices;
  /** Other wakes for `watch --needs-you`: the person's new annotations (annotation-notices.ts). */
  needsYouSources?: readonly NeedsYouSource[];
  /** Which live workers of a repository touch the same files (overlaps.ts); absent: never said. */
  overlaps?: OverlapReader;
  requestShutdown(): void;
}

function findWorker(fleet: FleetHostApi, id: string): WorkerViewLike {
  const view = fleet.view(id);
  if (!view) throw unknownWorker(id);
  return view;
}

/** The status row promised by `hand status` (a fixed, documented field set). */
export function statusRow(v: WorkerViewLike): StatusRow {
  return {
    id: v.id,
    project: v.project,
    stage: v.stage,
    state: v.state,
    background: v.background ?? null,
    awaitingInput: v.awaitingInput,
    blockedReason: v.blockedReason,
    // The dialog on screen (question, options, fingerprint): what hand answer takes back. Its
    // question and labels are the worker's words, quoted (contract/worker-words.ts).
    dialog: quoteDialog(v.id, v.dialog),
    promptBox: v.promptBox,
    readable: v.readable,
    live: v.live,
    couldNotTell: v.couldNotTell ?? null,
    backend: v.backend,
    host: v.host,
    agent: v.agent,
    agentVersion: v.agentVersion ?? null,
    reportPath: v.reportPath,
    reportExists: v.reportExists,
    // Why the report is not a report, or what else the machine could not do (a refused report reads here, never as "none").
    problem: v.problem ? quoteProblem(v.id, v.problem) : null,
    // The screen's last lines are the worker's words: quoted, attributed, bounded (issue 37).
    lastActivity: quotedOrEmpty(v.id, v.lastActivity),
    updatedAt: new Date(v.updatedAt).toISOString(),
    stallAt: v.stallAt === null ? null : new Date(v.stallAt).toISOString(),
    exitCode: v.exitCode,
    waitingOn: v.waitingOn ?? null,
    // The worker's own words (a dialog's question, a report's Waiting on:), attributed, quoted and
    // bounded: what a face shows the Hand instead of the raw text (contract/worker-words.ts).
    workerSaid: v.dialog?.question ? quoteWorker(v.id, v.dialog.question) : v.waitingOn ? quoteWorker(v.id, v.waitingOn) : null,
    // What the worker's gate waits for ('brief approval' | 'landing approval'), from its machine state.
    gate: v.gate ?? null,
    // The latest rejection at either gate, with the person's reason.
    rejection: v.rejection ? `${v.rejection.gate}: ${v.rejection.reason}` : null,
    // What the stage means (from the machine's tags): what scripts should test instead of the stage.
    condition: v.condition,
    // The worktree was deleted outside kingshand (daemon/fleet/worktree-presence.ts).
    worktreeMissing: worktreeMissing(v),
    // The hooks' witness (actors/witness.ts): why the hook says it is blocked, a dispute, token usage.
    // A hook's message is the worker's too (a worker can send notes for itself): quoted.
    hook: v.hook ? { ...v.hook, message: quotedOrNull(v.id, v.hook.message) } : null,
    hookReason: quotedOrNull(v.id, v.hookReason),
    disputed: v.disputed ?? null,
    tokens: v.tokens ?? null,
    ...(v.readOnly ? { readOnly: true } : {}),
    // Filled by the session keeper's rule (session-handlers.ts): the session, a gone worker's resume, the cost.
    session: null,
    resume: null,
    cost: null,
  };
}

/** The fleet's core methods (the rest of the table: landing.ts, work-handlers.ts, …; composed in fleet-methods.ts). */
export type CoreMethods = Pick<MethodTable, 'ping' | 'shutdown' | 'annex' | 'annex.propose' | 'projects' | 'wait' | 'watch' | 'read' | 'report' | 'send' | 'keys' | 'answer' | 'stop'> & {
  /** Dispatch's own answer: the usage and item rules around it (cross-rules.ts) add warnings and the item. */
  dispatch(params: DispatchParams): Promise<DispatchAnswer>;
  /** The rows before the work rules name each worker's item and decision. */
  status(params: StatusParams): Promise<(StatusRow & { permissions: PermissionPosture })[]>;
};

export function makeHandlers(deps: HandlerDeps): CoreMethods {
  const { fleet, store } = deps;
  return {
    async ping() {
      // `store`: null while the database takes writes; else locked/full, since when, how many transitions wait.
      return { pid: deps.pid, home: deps.home, socket: deps.socket, uptimeMs: Date.now() - deps.startedAt, workers: fleet.views().length, store: fleet.storeHealth() };
    },
    async shutdown() {
      setImmediate(() => deps.requestShutdown());
      const live = liveWorkerIds(fleet);
      const held = gateHeldWorkerIds(fleet);
      return { stopping: true, pid: deps.pid, liveWorkers: live, gateHeldWorkers: held, tmuxServer: live.length ? 'kept' : 'stopped', advice: stopAdvice(live, held) };
    },
    async annex(req) {
      const raw = req.repo;
      if (!existsSync(raw)) throw new UsageError('missing-repo', `${resolve(raw)} does not exist. Pass the path of a git work tree.`, { repo: raw });
      const repo = await deps.repoTopLevel(realpathSync(raw));
      const posture = req.posture ?? 'local-only';
      const name = req.name || basename(repo);
      if (isPrototypeName(name)) throw new UsageError('bad-project-name', `${prototypeNameWhy('project name', name)} (pass --name).`, { name });
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
        throw new UsageError('bad-project-name', `project name ${JSON.stringify(name)} is not usable: letters, digits, '.', '-', '_' (pass --name).`, { name });
      }
      const clash = store.listProjects().find((p) => p.name === name && p.repo !== repo);
      if (clash) throw new RefusedError('project-name-taken', `project name ${name} already belongs to ${clash.repo}. Pass --name <other>.`, { name });
      const previous = store.listProjects().find((p) => p.repo === repo);
      const permissions = annexPermissions(req.permissions, previous);
      const defaultAgent = annexDefaultAgent(req.agent, previous);
      const record: ProjectRecord = { name, repo, posture, yolo: req.yolo === true, registeredAt: previous?.registeredAt ?? Date.now(), permissions, defaultAgent };
      if (previous && previous.name !== name) {
        throw new RefusedError('repo-registered', `${repo} is already registered as ${previous.name}.`, { repo });
      }
      // A push-capable posture needs what pushing needs (origin, gh, no-mistakes), before it is stored.
      // The caller's environment, looked up now: gh installed after the daemon started counts.
      const problem = await registrationProblem(posture, repo, req.env ?? deps.env);
      if (problem) throw problem;
      store.upsertProject(record);
      // What the branch workers are cut from already makes them run (issue 37 item 3): the person
      // decides whether to trust it, so it is said now, read from the commit, never the checkout.
      const base = await deps.resolveBase(repo).catch(() => null);
      return { ...record, updated: Boolean(previous), agentSettings: await repoAgentSettings(repo, base) };
    },
    /** What annex would register, proposed from the repository and this machine; nothing is written. */
    async 'annex.propose'(req) {
      if (!existsSync(req.repo)) throw new UsageError('missing-repo', `${resolve(req.repo)} does not exist. Pass the path of a git work tree.`, { repo: req.repo });
      const repo = await deps.repoTopLevel(realpathSync(req.repo));
      const name = basename(repo);
      const registered = store.listProjects().find((p) => p.repo === repo) ?? null;
      const taken = store.listProjects().find((p) => p.name === name && p.repo !== repo);
      const proposal = await proposePosture(repo, req.env ?? deps.env);
      return { repo, name: registered?.name ?? name, nameFree: !taken, registeredAs: registered?.name ?? null, ...proposal, yolo: false as const };
    },
    async projects() {
      return store.listProjects();
    },
    async dispatch(params) {
      const request = dispatchRequest(params);
      const view = await dispatchWorker(request, deps);
      return {
        id: view.id, repo: deps.store.getWorker(view.id)?.repo ?? '', worktree: view.worktree, branch: view.branch, base: view.base,
        backend: view.backend, host: view.host, agent: view.agent, agentChosenBy: view.agentChosenBy, briefPath: view.briefPath, reportPath: view.reportPath, stage: view.stage,
        copied: readFirstCopies(view.briefPath, params.readPaths),
        permissions: postureOfProject(store, view.project),
        ...gatedDispatchFacts(view),
        delivery: readDelivery(view.briefPath),
        seeded: view.seeded,
        ...(view.postureGap ? { postureGap: view.postureGap } : {}),
        ...(view.calibration ? { calibration: view.calibration } : {}),
        // Names only: the caller's variables the allow-list kept from the worker (issue 24 item 4).
        envLeftOut: allowListEnv(request.env, agentProfile(view.agent).workerEnv).leftOut,
      };
    },
    async status({ id }) {
      // Every view is built once (the overlaps need them all): 500 of them are ~15 ms on a cold daemon.
      const all = fleet.views();
      const views = id ? [findWorker(fleet, id)] : all;
      // Two workers touching the same files (issue 40): asked of git on demand, never failing a status.
      // Waited for a bounded time: hundreds of workers in one repository are read a few at a time.
      const overlaps = deps.overlaps ? await deps.overlaps.of(all, id, STATUS_OVERLAP_WAIT_MS).catch(() => null) : null;
      // The permission posture comes from the project (it decides the worker's launch settings):
      // asked once a project, not once a row.
      const postures = new Map<string, PermissionPosture>();
      const postureOf = (project: string) => postures.get(project) ?? postures.set(project, postureOfProject(store, project)).get(project)!;
      return views.map((v) => {
        const shared = overlaps?.byWorker.get(v.id);
        return { ...statusRow(v), permissions: postureOf(v.project), ...(shared ? { overlaps: shared } : {}), ...(overlaps?.unread.has(v.id) ? { overlapsUnread: true as const } : {}) };
      });
    },
    async wait({ id, until = 'any', timeoutMs = 30 * 60_000 }, ctx) {
      findWorker(fleet, id);
      // A condition already met is said from a reading taken now, not one the screen has left.
      await fleet.freshView(id);
      let lastSent = 0;
      const r = await waitForWorker(fleet, id, until, timeoutMs, {
        signal: ctx.signal,
        onChange: (v) => {
          const now = Date.now();
          if (now - lastSent < 200) return;
          lastSent = now;
          ctx.progress({ stage: v.stage, state: v.state, lastActivity: quotedOrEmpty(v.id, v.lastActivity), readable: v.readable });
        },
      });
      if (r.reason !== 'blocked' || r.blockedReason === 'gate') return r;
      // What it asks, lifted once (io/screen/asked.ts): the dialog its agent's reader found, else its screen.
      const dialog = fleet.view(id)?.dialog ?? null;
      const screen = dialog ? null : await fleet.readScreen(id).then((s) => (s.ok ? s.text : null)).catch(() => null);
      const asked = askedOf(dialog, screen);
      return { ...r, question: quotedOrNull(id, asked.question), options: asked.options.map((o) => quoteWorker(id, o)) };
    },
    /** Streams every worker view change as progress until the timeout or until the client leaves. */
    async watch({ timeoutMs = 60_000, needsYou }, ctx) {
      if (needsYou) return watchNeedsYou(fleet, timeoutMs, ctx, deps.baseNotices, deps.needsYouSources);
      for (const v of fleet.views()) ctx.progress(statusRow(v));
      await waitFor(fleet, null, () => false, { timeoutMs, signal: ctx.signal, onView: (v) => ctx.progress(statusRow(v)) });
      return fleet.views().map((v) => statusRow(v));
    },
    async read({ id, scrollback }) {
      const view = findWorker(fleet, id);
      const res = await fleet.readScreen(id, scrollback ? { scrollback } : {});
      if (!res.ok) throw new RefusedError('read-failed', `could not read the screen of ${id}: ${res.error}`, { id });
      // The screen is the worker's words: a block behind a gutter under a line naming it (issue 37).
      return { id, text: quoteScreen(id, res.text), source: scrollback ? 'scrollback' : 'visible', stage: view.stage, state: view.state, dialog: quoteDialog(id, view.dialog) };
    },
    // The report reaches the Hand without a file read of its own (its Read tool would ask: the
    // state directory is outside its workspace), read as a stranger's file and quoted.
    async report({ id }) {
      const view = findWorker(fleet, id);
      const path = view.reportPath;
      const r = await readUntrustedFile(path, { maxBytes: REPORT_READ_CAP });
      if (r.kind === 'read') return { id, path, state: 'read', text: quoteReport(id, r.text), truncated: r.truncated, refused: null };
      if (r.kind === 'refused') return { id, path, state: 'refused', text: null, truncated: false, refused: refusalLine(r) };
      return { id, path, state: 'absent', text: null, truncated: false, refused: null };
    },
    async send({ id, text, allowNonEmptyBox }) {
      findWorker(fleet, id);
      // Settled includes a report re-check in progress (settled.checking): a screen change of the
      // box (a key, a backspace) puts it there for a moment, and a send then was answered at once.
      const wasSettled = !tookThePrompt(fleet.view(id)!);
      const sent = await fleet.send(id, text, { allowNonEmptyBox });
      // A `hand wait` right after `hand send` must not wake on the settled state from before the
      // prompt: answer once the worker shows it took the prompt (bounded; the screen decides).
      // A report re-check inside settled (the box emptied before the spinner came) is still the old turn.
      const view = wasSettled ? (await waitFor(fleet, id, tookThePrompt, { timeoutMs: 3000, fresh: true })).view! : sent;
      return { id, sent: true, stage: view.stage, state: view.state, confirmed: !wasSettled || tookThePrompt(view) };
    },
    async keys(params) {
      const { id, allowNonEmptyBox } = params;
      const key = parseOneKey(params.key); // checked at the edge (fleet-methods.ts); here it becomes the key itself
      const dialogBefore = findWorker(fleet, id).dialog?.fingerprint ?? null;
      const pressed = await fleet.key(id, key, { allowNonEmptyBox });
      // Answer with the screen the key produced, so the next command never acts on the one before
      // it. A key that can close a dialog (Enter, Escape, a typed choice) waits for that dialog to
      // leave the screen: the agent repaints it (a blinking bullet) before it takes the key, and a
      // `hand wait` right after read that repaint as still blocked on the answered dialog.
      const closes = dialogBefore !== null && (typeof key !== 'string' || key === 'enter' || key === 'escape');
      const produced = closes ? (v: WorkerViewLike) => (v.dialog?.fingerprint ?? null) !== dialogBefore : () => true;
      const view = (await waitFor(fleet, id, produced, { timeoutMs: 1500, fresh: true, last: pressed })).view!;
      return { id, key: typeof key === 'string' ? key : key.char, stage: view.stage, state: view.state, awaitingInput: view.awaitingInput, promptBox: view.promptBox };
    },
    async answer(req) {
      findWorker(fleet, req.id);
      return answerDialog(fleet, req);
    },
    async stop({ id, timeoutMs = 30_000 }) {
      findWorker(fleet, id);
      const res = await fleet.stop(id, { timeoutMs });
      return { id, stage: res.view.stage, exitCode: res.exitCode, paneReusable: res.paneReusable, condition: conditionOf(res.view) };
    },
  };
}
