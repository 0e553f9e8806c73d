/**
 * `hand relaunch <id>`: a fresh agent session for a wedged worker, in the SAME worktree and
 * branch (commits and files kept; never a second worktree for one task — control-plane §4.3).
 *   1. refused while the worker is working, unless forced (a busy worker is not wedged);
 *   2. its session ends by the ordinary stop path (Escape if needed, then /exit — never a kill);
 *   3. the previous report is moved aside in the report directory (report-before-relaunch-<n>.md),
 *      so the new session is not "done" on the old report, and its text goes into the progress
 *      note. It is the worker's file (issue 37): read without following a link or blocking on a
 *      FIFO, capped, and a refused one is said refused, with why (never "no report"); the move
 *      renames what is there, a link as a link, never what it points to;
 *   4. the worker's brief.md is written again from the daemon's copy of the brief as dispatched
 *      (a worker that rewrote it changes nothing), and a progress note is written beside it: the
 *      person's note, the previous report, and `git log` / `git diff --stat` since the base (plus
 *      uncommitted files). Both by atomic create: a link planted at either name is replaced;
 *   5. the worker is dispatched again under its id (no brief gate: the brief was approved), the
 *      first prompt naming the brief and the note (with the person's note inline).
 * Journaled as RELAUNCHED beside the fleet's own DISPATCH entry. `relaunchWorker` is the entry
 * point other features call (decisions: relaunch with a note).
 */
import { somethingAt } from '../../io/fs/worker-places.ts';
import { allowListEnv } from '../../io/terminal/worker-env.ts';
import { existsSync, lstatSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { createFileAtomically } from '../../io/fs/atomic-create.ts';
import { readUntrustedFile, refusalLine } from '../../io/fs/untrusted-file.ts';
import { readBriefAsDispatched } from '../../io/brief/brief-copy.ts';
import { PROGRESS_NOTE_FILE, REPORT_READ_CAP, reportRelativePath, workerDirsOf } from '../../io/brief/worker-layout.ts';
import { runRemote } from '../../io/ssh/run-remote.ts';
import type { PlaceOf } from './landing.ts';
import { RefusedError } from '../../contract/errors.ts';
import { runGit } from '../../io/git/run-git.ts';
import { agentProfile } from '../../io/agent/profiles/index.ts';
import type { FleetStore, WorkerIntent } from '../../persistence/types.ts';
import type { FleetHostApi, WorkerViewLike } from '../../actors/fleet-api.ts';
import { firstPrompt } from '../fleet/dispatch.ts';
import { conditionOf } from '../../actors/wait-report.ts';
import type { SandboxAvailability } from '../../io/sandbox/availability.ts';
import { FAR_HOST_HAS_NO_SANDBOX, sandboxRefusal } from '../../io/sandbox/refusal.ts';
import type { SessionKeeper } from '../sessions/session-keeper.ts';
import { resumeLineFor, resumeRefusal } from '../sessions/resume-line.ts';

/**
 * The method's parameters but the worker (given apart) and the note file (read into `note`, the
 * person's progress note as text, before it gets here). `force` relaunches even while the worker
 * is working; `env` is the caller's environment (for the agent's launch; memory only); `resume`
 * continues the worker's own conversation (issue 41): no progress note, one line typed.
 */
export type RelaunchOptions = Omit<RelaunchParams, 'id' | 'noteFile'>;

export interface RelaunchDeps {
  store: FleetStore;
  fleet: FleetHostApi;
  rememberCallerEnv?(id: string, env: Record<string, string>, add?: Record<string, string>): void;
  stopTimeoutMs?: number;
  now?: () => number;
  /** A far worker's host (absent: every worker is here). */
  placeOf?: PlaceOf;
  /** Whether kingshand's worker sandbox can be built here; absent: not asked. */
  sandbox?(): SandboxAvailability;
  /** The worker's agent session, proved again now (daemon/sessions/session-keeper.ts); absent: no resume. */
  sessions?: Pick<SessionKeeper, 'proveForResume'>;
}

export type { RelaunchResult } from '../../contract/methods.ts';
import type { RelaunchParams, RelaunchResult } from '../../contract/methods.ts';

/** Stages a relaunch refuses outright: the person already decided about these. */
/** The person already decided about a landed or rejected worker. */
const notRelaunchable = (v: WorkerViewLike): boolean => v.marks.includes('landed') || v.marks.includes('rejected');

async function gitText(cwd: string, args: string[]): Promise<string> {
  const r = await runGit(cwd, args);
  return r.exitCode === 0 ? r.stdout.trim() : `(could not tell: git ${args[0]} said ${(r.stderr || r.spawnError || '').trim()})`;
}

/** The previous report as relaunch found it: its text (cut at the cap: said), refused with why, or none. */
export type PreviousReport = { text: string; truncated: boolean } | { refused: string } | null;

function previousReportText(p: PreviousReport): string {
  if (p === null) return '(no report was written)';
  if ('refused' in p) return `(the previous report was ${p.refused}; it was moved aside unread)`;
  return `${p.text.trim() || '(the report was empty)'}${p.truncated ? `\n\n(the report was longer: only its first ${REPORT_READ_CAP} bytes are here)` : ''}`;
}

/** The progress note's text; every git read that fails says so instead of reading as "nothing". */
export async function progressNote(intent: WorkerIntent, note: string | undefined, previousReport: PreviousReport): Promise<string> {
  const log = await gitText(intent.repo, ['log', '--oneline', `${intent.base}..refs/heads/${intent.branch}`]);
  const stat = await gitText(intent.repo, ['diff', '--stat', `${intent.base}...refs/heads/${intent.branch}`]);
  const status = existsSync(intent.worktree) ? await gitText(intent.worktree, ['status', '--short']) : '(the worktree is missing: it will be checked out again)';
  return [
    `# Progress note for ${intent.id} (relaunch)`,
    '',
    'You are continuing work an earlier session of this worker started, in the same worktree and branch. Nothing it committed or left in the worktree was lost. Read this, then carry on with the brief.',
    '',
    '## Note from the person',
    note?.trim() || '(none given)',
    '',
    '## Previous report',
    previousReportText(previousReport),
    '',
    `## Commits since ${intent.base}`,
    log || '(none)',
    '',
    `## Changes since ${intent.base} (diff --stat)`,
    stat || '(none)',
    '',
    '## Uncommitted files in the worktree',
    status || '(none)',
    '',
  ].join('\n');
}

export function relaunchPrompt(intent: WorkerIntent, notePath: string, note: string | undefined): string {
  const inline = note?.trim() ? ` The person's note: ${note.trim().replace(/\s+/g, ' ').slice(0, 600)}` : '';
  return `${firstPrompt(intent.briefPath, intent.reportPath)} This is a relaunch: first read the progress note at ${notePath} (what was done so far, the previous report, the commits).${inline}`;
}


/** The first free aside name in the report directory (a planted link takes its name: it is never overwritten through). */
function nextAsideName(dir: string): string {
  for (let n = 1; ; n++) {
    const p = join(dir, `report-before-relaunch-${n}.md`);
    if (!somethingAt(p)) return p;
  }
}

/** The previous report, read as the worker's file (io/fs/untrusted-file.ts), and moved aside whatever it is. */
async function setPreviousReportAside(intent: WorkerIntent): Promise<PreviousReport> {
  const { reportDir } = workerDirsOf(intent);
  const aside = nextAsideName(reportDir);
  const r = await readUntrustedFile(intent.reportPath, { maxBytes: REPORT_READ_CAP });
  const previous: PreviousReport = r.kind === 'read' ? { text: r.text, truncated: r.truncated } : r.kind === 'refused' ? { refused: refusalLine(r) } : null;
  // rename moves the name: a link goes aside as a link, a FIFO as a FIFO, nothing is opened.
  if (somethingAt(intent.reportPath)) renameSync(intent.reportPath, aside);
  return previous;
}

/**
 * $1 = the far report, $2 = its directory: moved, only when something is there, to the first
 * report-before-relaunch-<n>.md that names nothing there (a link or directory planted at a name
 * would take the report inside it).
 */
const FAR_SET_ASIDE = 'test -e "$1" || test -L "$1" || exit 0; n=1; while test -e "$2/report-before-relaunch-$n.md" || test -L "$2/report-before-relaunch-$n.md"; do n=$((n+1)); done; mv -f -- "$1" "$2/report-before-relaunch-$n.md"';

export async function relaunchWorker(id: string, o: RelaunchOptions, deps: RelaunchDeps): Promise<RelaunchResult> {
  const view = deps.fleet.view(id);
  const intent = deps.store.getWorker(id);
  if (!view || !intent) throw new RefusedError('unknown-worker', `no worker named ${JSON.stringify(id)}. \`hand status\` lists the workers.`, { id });
  if (notRelaunchable(view)) {
    throw new RefusedError('worker-not-relaunchable', `worker ${id} is ${view.stage}: the person already decided about it. Dispatch a new worker for new work.`, { id, stage: view.stage });
  }
  if (view.gate) {
    throw new RefusedError('worker-at-a-gate', `worker ${id} waits at its ${view.gate}; approve or reject it (hand approve ${id} / hand reject ${id} --reason …) instead of relaunching.`, { id, gate: view.gate });
  }
  if (!o.force && isWorking(view)) {
    throw new RefusedError('worker-is-working', `worker ${id} is working (${view.stage}); a working worker is not wedged. Wait for it (hand wait ${id}), or pass --force to stop it and relaunch anyway.`, { id, stage: view.stage });
  }
  const project = deps.store.getProject(intent.project);
  // Posture off needs kingshand's sandbox, which a far host does not have (io/sandbox/refusal.ts).
  if (project && intent.host && deps.sandbox) {
    const noSandbox = sandboxRefusal(project.permissions ?? 'off', project.name, FAR_HOST_HAS_NO_SANDBOX);
    if (noSandbox) throw noSandbox;
  }
  // A far worker's agent starts under the far account's conditions, not this machine's.
  if (project && !intent.host) {
    const sandbox = deps.sandbox?.() ?? null;
    const noSandbox = sandboxRefusal(project.permissions ?? 'off', project.name, sandbox);
    if (noSandbox) throw noSandbox;
    const startProblem = agentProfile(intent.agent).dispatchProblem(project.permissions ?? 'off', project.name, { ...(o.env ?? process.env), ...o.envAdd }, { sandboxed: sandbox?.ok === true });
    if (startProblem) throw startProblem;
  }

  // A resume proves the conversation before anything is stopped or moved: refused, the worker is as it was.
  const session = o.resume ? await provedSession(id, intent, o, deps) : null;

  const stoppedFrom = view.stage;
  if (conditionOf(view) !== 'gone') {
    const stopped = await deps.fleet.stop(id, { timeoutMs: deps.stopTimeoutMs ?? 30_000 });
    if (!stopped.paneReusable && !stopped.view.marks.includes('exited-cleanly') && stopped.view.live !== false) {
      throw new RefusedError('worker-did-not-stop', `worker ${id} did not leave by /exit (now ${stopped.view.stage}); nothing was relaunched. Read its screen (hand read ${id}).`, { id, stage: stopped.view.stage });
    }
  }

  // A dead pane kept by remain-on-exit still holds the worker's tmux session name: close it and
  // free the id (a gone worker's relaunch otherwise fails on "duplicate session").
  await deps.fleet.release(id);

  if (session) return resumeConversation(id, intent, view, stoppedFrom, session, o, deps);

  // The old report would make the new session read as done at its first settle.
  const { briefDir } = workerDirsOf(intent);
  const previous = await setPreviousReportAside(intent);
  // The brief as dispatched, over whatever the worker left at brief.md (a worker older than the
  // daemon's copy keeps its brief.md as it is: there is nothing truer to write).
  const brief = await readBriefAsDispatched(intent.briefPath);
  const briefRestored = 'text' in brief && brief.from === 'daemon-copy';
  if (briefRestored) createFileAtomically(intent.briefPath, brief.text);
  const notePath = join(briefDir, PROGRESS_NOTE_FILE);
  createFileAtomically(notePath, await progressNote(intent, o.note, previous));
  let prompt = relaunchPrompt(intent, notePath, o.note);
  const far = intent.farDir ? (deps.placeOf?.(intent) ?? null) : null;
  if (far && intent.farDir) {
    // A far worker reads its brief directory there (the note and the brief go over with it when
    // it is made again), and its report there is what is read back: it goes aside there too,
    // renamed as whatever it is (a link is never followed: the script only moves names).
    const farReport = `${intent.farDir}/${reportRelativePath(intent)}`;
    await runRemote(far, ['sh', '-c', FAR_SET_ASIDE, 'sh', farReport, farReport.slice(0, farReport.lastIndexOf('/'))]);
    prompt = prompt.split(`${briefDir}/`).join(`${intent.farDir}/`);
  }

  // The allow-list again: a relaunch from another shell hands over no more than a dispatch.
  if (o.env) deps.rememberCallerEnv?.(id, allowListEnv(o.env, agentProfile(intent.agent).workerEnv).kept, o.envAdd);
  const fresh: WorkerIntent = {
    id, project: intent.project, repo: intent.repo, worktree: intent.worktree, branch: intent.branch, base: intent.base, backend: intent.backend, agent: intent.agent, briefPath: intent.briefPath, reportPath: intent.reportPath, createdAt: (deps.now ?? Date.now)(),
    // It stays on its host.
    ...(intent.host && { host: intent.host }), ...(intent.farDir && { farDir: intent.farDir }),
  };
  const v = await deps.fleet.dispatch({ intent: fresh, stallMs: o.stallMs ?? 20 * 60_000, firstPrompt: prompt, briefGate: false });
  deps.store.commit({
    snapshotVersion: 0,
    journal: [{ actorId: `worker:${id}`, event: { type: 'RELAUNCHED', note: o.note ?? null, progressNotePath: notePath, previousReport: previous !== null && 'text' in previous, ...(previous && 'refused' in previous ? { previousReportRefused: previous.refused } : {}), briefRestored, forced: o.force === true }, from: stoppedFrom, to: v.stage, at: (deps.now ?? Date.now)() }],
  });
  return {
    id, stoppedFrom,
    previousReport: previous && 'text' in previous ? previous.text : null,
    previousReportRefused: previous && 'refused' in previous ? previous.refused : null,
    progressNotePath: notePath, firstPrompt: prompt, worktree: intent.worktree, branch: intent.branch, stage: v.stage, resumedSession: null,
  };
}

/** The session a resume continues, proved now; refused with which problem and the fresh relaunch that remains. */
async function provedSession(id: string, intent: WorkerIntent, o: RelaunchOptions, deps: RelaunchDeps): Promise<string> {
  if (!deps.sessions) throw resumeRefusal(id, { ok: false, why: 'cannot-resume', detail: 'this daemon keeps no agent sessions' });
  // Read afresh (never a proof remembered for the page): this is the file the agent will resume.
  const proof = await deps.sessions.proveForResume(intent, { ...(o.env ?? process.env), ...o.envAdd }, { fresh: true });
  if (!proof.ok) throw resumeRefusal(id, proof);
  return proof.sessionId;
}

/**
 * The same worktree, branch and conversation in a new terminal: the agent resumes its session by
 * id, and the one line typed says what happened. The report stays where it is (a parked worker's
 * question is still its question), no note is written, the brief is not touched.
 */
async function resumeConversation(id: string, intent: WorkerIntent, view: WorkerViewLike, stoppedFrom: string, sessionId: string, o: RelaunchOptions, deps: RelaunchDeps): Promise<RelaunchResult> {
  if (o.env) deps.rememberCallerEnv?.(id, allowListEnv(o.env, agentProfile(intent.agent).workerEnv).kept, o.envAdd);
  const line = resumeLineFor(view);
  const next: WorkerIntent = {
    id, project: intent.project, repo: intent.repo, worktree: intent.worktree, branch: intent.branch, base: intent.base, backend: intent.backend, agent: intent.agent, briefPath: intent.briefPath, reportPath: intent.reportPath, createdAt: (deps.now ?? Date.now)(),
    // The release that wrote the session resumes it: its arguments are chosen by its version.
    ...(intent.agentVersion !== undefined && { agentVersion: intent.agentVersion }),
    resumeSession: sessionId,
  };
  const v = await deps.fleet.dispatch({ intent: next, stallMs: o.stallMs ?? 20 * 60_000, firstPrompt: line, briefGate: false });
  deps.store.commit({
    snapshotVersion: 0,
    journal: [{ actorId: `worker:${id}`, event: { type: 'RESUMED', session: sessionId, typed: line, forced: o.force === true }, from: stoppedFrom, to: v.stage, at: (deps.now ?? Date.now)() }],
  });
  return {
    id, stoppedFrom, previousReport: null, previousReportRefused: null, progressNotePath: '', firstPrompt: line, worktree: intent.worktree, branch: intent.branch, stage: v.stage, resumedSession: sessionId,
  };
}

/** Busy = not at a condition a person or script acts on (settled, blocked, stalled, gone). */
function isWorking(v: WorkerViewLike): boolean {
  return conditionOf(v) === null;
}
