/**
 * `hand relaunch <id>`: a fresh agent session for a wedged worker, in the SAME worktree and
 * branch (commits and files kept; never a second worktree for one task — control-plane §4.3).
 *   1. refused while the worker is working, unless forced (a busy worker is not wedged);
 *   2. its session ends by the ordinary stop path (Escape if needed, then /exit — never a kill);
 *   3. the previous report is moved aside (report-before-relaunch-<n>.md), so the new session is
 *      not "done" on the old report, and its text goes into the progress note;
 *   4. a progress note is written beside the brief: the person's note, the previous report, and
 *      `git log` / `git diff --stat` since the base (plus uncommitted files);
 *   5. the worker is dispatched again under its id (no brief gate: the brief was approved), the
 *      first prompt naming the brief and the note (with the person's note inline).
 * Journaled as RELAUNCHED beside the fleet's own DISPATCH entry. `relaunchWorker` is the entry
 * point other features call (decisions: relaunch with a note).
 */
import { allowListEnv } from '../../io/terminal/worker-env.ts';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { runRemote } from '../../io/ssh/run-remote.ts';
import type { PlaceOf } from './landing.ts';
import { RefusedError } from '../../contract/errors.ts';
import { runGit } from '../../io/git/run-git.ts';
import { agentProfile } from '../../io/agent/profiles/index.ts';
import type { FleetStore, WorkerIntent } from '../../persistence/types.ts';
import type { FleetHostApi, WorkerViewLike } from '../fleet-api.ts';
import { firstPrompt } from './dispatch.ts';
import { conditionOf } from '../wait-report.ts';
import type { SandboxAvailability } from '../../io/sandbox/availability.ts';
import { FAR_HOST_HAS_NO_SANDBOX, sandboxRefusal } from '../../io/sandbox/refusal.ts';

export interface RelaunchOptions {
  /** The person's progress note (text). */
  note?: string;
  /** Relaunch even while the worker is working. */
  force?: boolean;
  stallMs?: number;
  /** The environment of the caller (for the agent's launch; memory only). */
  env?: Record<string, string>;
  envAdd?: Record<string, string>;
}

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
}

export type { RelaunchResult } from '../../contract/methods.ts';
import type { RelaunchResult } from '../../contract/methods.ts';

/** Stages a relaunch refuses outright: the person already decided about these. */
/** The person already decided about a landed or rejected worker. */
const notRelaunchable = (v: WorkerViewLike): boolean => v.marks.includes('landed') || v.marks.includes('rejected');

async function gitText(cwd: string, args: string[]): Promise<string> {
  const r = await runGit(cwd, args);
  return r.exitCode === 0 ? r.stdout.trim() : `(could not tell: git ${args[0]} said ${(r.stderr || r.spawnError || '').trim()})`;
}

/** The progress note's text; every git read that fails says so instead of reading as "nothing". */
export async function progressNote(intent: WorkerIntent, note: string | undefined, previousReport: string | null): Promise<string> {
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
    previousReport?.trim() || '(no report was written)',
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

function nextAsideName(dir: string): string {
  for (let n = 1; ; n++) {
    const p = join(dir, `report-before-relaunch-${n}.md`);
    if (!existsSync(p)) return p;
  }
}

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

  // The old report would make the new session read as done at its first settle.
  const briefDir = dirname(intent.briefPath);
  let previousReport: string | null = null;
  const aside = nextAsideName(briefDir);
  if (existsSync(intent.reportPath)) {
    previousReport = readFileSync(intent.reportPath, 'utf8');
    renameSync(intent.reportPath, aside);
  }
  const notePath = join(briefDir, 'progress-note.md');
  writeFileSync(notePath, await progressNote(intent, o.note, previousReport));
  let prompt = relaunchPrompt(intent, notePath, o.note);
  const far = intent.farDir ? (deps.placeOf?.(intent) ?? null) : null;
  if (far && intent.farDir) {
    // A far worker reads its brief directory there (the note goes over with it when it is made
    // again), and its report there is what is read back: it goes aside there too.
    await runRemote(far, ['sh', '-c', 'test -e "$1" || exit 0; mv -f -- "$1" "$2"', 'sh', `${intent.farDir}/report.md`, `${intent.farDir}/${basename(aside)}`]);
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
    journal: [{ actorId: `worker:${id}`, event: { type: 'RELAUNCHED', note: o.note ?? null, progressNotePath: notePath, previousReport: previousReport !== null, forced: o.force === true }, from: stoppedFrom, to: v.stage, at: (deps.now ?? Date.now)() }],
  });
  return { id, stoppedFrom, previousReport, progressNotePath: notePath, firstPrompt: prompt, worktree: intent.worktree, branch: intent.branch, stage: v.stage };
}

/** Busy = not at a condition a person or script acts on (settled, blocked, stalled, gone). */
function isWorking(v: WorkerViewLike): boolean {
  return conditionOf(v) === null;
}
