/**
 * The no-mistakes posture, driven (workflow §5, §6, §2.3):
 *  - prod-only classifies each task: internal tooling/automation/process/release ships direct-PR;
 *    product-facing, mixed or uncertain (and unclassified) ships no-mistakes;
 *  - before a no-mistakes dispatch: the gate must be initialised for the repository (its
 *    `no-mistakes` git remote), or the dispatch is refused with the command that fixes it; the CI
 *    preflight runs, and its answer (unknown stays unknown) goes into the brief with its line;
 *  - the brief carries the exact gate invocation (`--skip push,pr,ci` while yolo is off, to hold
 *    the outward step; `--skip ci` only on a repository proven no-ci);
 *  - a delivery record in the daemon's own brief directory (<state>/briefs/<id>.delivery.json, never the
 *    worker's: a worker that could rewrite it would choose how its own work ships) says how this
 *    task ships, for landing to read.
 * Landing reads the gate run's state and brings its findings back (landingGateCheck).
 */
import { dirname, join } from 'node:path';
import { createFileAtomically } from '../../io/fs/atomic-create.ts';
import { makePrivateDir } from '../../io/fs/private-files.ts';
import { readUntrustedFileSync } from '../../io/fs/untrusted-file.ts';
import { briefCopyPathOf } from '../../io/brief/worker-layout.ts';
import { deliveryPathOf, readDelivery } from '../../io/brief/delivery-record.ts';
export { deliveryPathOf, readDelivery };
import { RefusedError, UsageError } from '../../contract/errors.ts';
import { runGit } from '../../io/git/run-git.ts';
import { ciPreflight, type CiPreflight } from '../../io/git/ci-preflight.ts';
import { readGateRun, type GateRunState } from '../../io/gate/gate-run.ts';
import type { ProjectRecord } from '../../persistence/types.ts';

export const TASK_KINDS = ['internal', 'product', 'mixed', 'uncertain'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];
export type { Ships } from '../../contract/methods.ts';
import type { Delivery, Ships } from '../../contract/methods.ts';

export function parseTaskKind(raw: unknown): TaskKind | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw === 'string' && (TASK_KINDS as readonly string[]).includes(raw)) return raw as TaskKind;
  throw new UsageError('bad-task-kind', `--task-kind ${JSON.stringify(raw)} is unknown. Use internal (tooling, automation, process, release), product, mixed or uncertain.`, { taskKind: raw });
}

/** How one task of this project ships. */
export function shipsOf(posture: ProjectRecord['posture'], kind: TaskKind | undefined): Ships {
  if (posture === 'no-mistakes-prod-only') return kind === 'internal' ? 'direct-PR' : 'no-mistakes';
  if (posture === 'no-mistakes') return 'no-mistakes';
  return posture;
}

/** POSIX single quotes (inner quotes closed, escaped, reopened): the argv the worker's shell gets. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The Intent (or Goal) section on one line, else the brief's first heading. */
export function intentLine(brief: string): string {
  const m = /^##\s+(?:Intent|Goal)\s*\n([\s\S]*?)(?=^##\s|(?![\s\S]))/m.exec(brief);
  const body = m?.[1]?.trim() || /^#\s+(.+)$/m.exec(brief)?.[1] || brief.trim().split('\n')[0] || 'the task in the brief';
  return body.replace(/\s+/g, ' ').trim();
}

/**
 * The quick marker (parley, workflow §7.4): a quick dispatch runs no review gate, and this exact
 * line in its brief or its report keeps its work from being merged on a forge: its pull request is
 * opened as a draft (a forge refuses to merge a draft until a person marks it ready).
 */
export const QUICK_MARKER = 'PARLEY DISPATCH - NO REVIEW GATE RAN.';

const READ_ONLY_SECTION = [
  '## Read-only',
  '- This worker reads and reports: it changes no file and makes no commit. Its worktree is read-only where kingshand sandboxes it.',
  '- The read-only scope beats any other section of this brief, "Done means" included: your report is the whole result.',
  '',
].join('\n');

const QUICK_SECTION = [
  '## Quick dispatch',
  `- ${QUICK_MARKER}`,
  '- This is a quick dispatch: no review gate runs on it. Keep the change as small as the brief says. Commit on your branch; do not push or merge.',
  '- Put the line above, word for word, in your report too.',
  '',
].join('\n');

export interface GatePlan {
  ships: Ships;
  quick?: boolean;
  readOnly?: boolean;
  taskKind: TaskKind | null;
  ci: CiPreflight | null;
  gateCommand: string | null;
  section: string;
}

async function gateInitialised(repo: string): Promise<boolean> {
  const r = await runGit(repo, ['remote', 'get-url', 'no-mistakes']);
  return r.exitCode === 0 && r.stdout.trim() !== '';
}

/** Decided before anything is created; a refusal leaves nothing behind. */
export async function reviewGatePlan(args: { project: ProjectRecord; repo: string; brief: string; taskKind?: TaskKind; env?: Record<string, string | undefined>; quick?: boolean; readOnly?: boolean }): Promise<GatePlan | null> {
  const { project } = args;
  // A read-only worker (counsel) lands nothing: no gate, no delivery path, its report is the result.
  if (args.readOnly) {
    const quick = args.quick ? { quick: true, section: `${READ_ONLY_SECTION}\n${QUICK_SECTION}` } : { section: READ_ONLY_SECTION };
    return { ships: project.posture === 'local-only' ? 'local-only' : 'direct-PR', readOnly: true, taskKind: args.taskKind ?? null, ci: null, gateCommand: null, ...quick };
  }
  // A quick dispatch skips the gate on every posture: a no-mistakes project ships it direct-PR.
  if (args.quick) {
    const ships: Ships = project.posture === 'local-only' ? 'local-only' : 'direct-PR';
    return { ships, quick: true, taskKind: args.taskKind ?? null, ci: null, gateCommand: null, section: QUICK_SECTION };
  }
  if (project.posture !== 'no-mistakes' && project.posture !== 'no-mistakes-prod-only') return null;
  const ships = shipsOf(project.posture, args.taskKind);
  const taskKind = args.taskKind ?? null;
  if (ships === 'direct-PR') {
    return {
      ships, taskKind, ci: null, gateCommand: null,
      section: ['## Delivery', `- This project reviews product work with no-mistakes; this task was classified ${taskKind} (tooling, automation, process or release), so it ships direct-PR without the review gate. Commit on your branch; do not push or merge.`, ''].join('\n'),
    };
  }
  if (!(await gateInitialised(args.repo))) {
    throw new RefusedError(
      'gate-not-initialised',
      `project ${project.name} is ${project.posture}, but the no-mistakes gate is not initialised for ${args.repo} (no 'no-mistakes' git remote). Run: cd ${args.repo} && no-mistakes init — then dispatch again. Nothing was created.`,
      { repo: args.repo, fix: `cd ${args.repo} && no-mistakes init` },
    );
  }
  const ci = await ciPreflight(args.repo, args.env ?? process.env);
  const yolo = project.yolo === true;
  // Sanctioned skips only (§6.1): hold the outward step while yolo is off; ci on a proven no-ci repo.
  const skip = !yolo ? ' --skip push,pr,ci' : ci.status === 'no-ci' ? ' --skip ci' : '';
  const gateCommand = `no-mistakes axi run --intent ${shellQuote(intentLine(args.brief))}${skip}`;
  const ciLine = yolo
    ? ci.briefLine
    : 'Stop before anything is pushed: the gate runs with --skip push,pr,ci, and the outward step waits for the person. Report when the gate passes.';
  const section = [
    '## Review gate (no-mistakes)',
    `- Run the gate from your worktree when the work is committed: \`${gateCommand}\``,
    `- CI preflight: ${ci.status} (${ci.signal}) — ${ci.detail}`,
    `- ${ciLine}`,
    "- If the gate parks on a finding that needs a person's answer (ask-user), write the question, the options and what you would need into your report and end your turn. Never skip a step to shorten a run.",
    '',
  ].join('\n');
  return { ships, taskKind, ci, gateCommand, section };
}

/** The brief with the gate's section (what dispatch writes as the worker's brief and the daemon's copy). */
export function withGateSection(brief: string, plan: GatePlan | null): string {
  return plan ? `${brief}\n${plan.section}` : brief;
}

/** Records how the task ships, in the daemon's own directory. */
export function writeGatePlan(briefPath: string, plan: GatePlan): string {
  const path = deliveryPathOf(briefPath);
  makePrivateDir(dirname(path));
  createFileAtomically(path, `${JSON.stringify({ ships: plan.ships, taskKind: plan.taskKind, ci: plan.ci ? { status: plan.ci.status, signal: plan.ci.signal, detail: plan.ci.detail } : null, gateCommand: plan.gateCommand, ...(plan.quick ? { quick: true } : {}), ...(plan.readOnly ? { readOnly: true } : {}) }, null, 2)}\n`);
  return path;
}


export function findingLine(f: GateRunState['findings'][number]): string {
  return `${f.id} [${f.severity || 'severity ?'}${f.action ? `, ${f.action}` : ''}] ${f.file}${f.line ? `:${f.line}` : ''} — ${f.description}`;
}

/**
 * `hand land` of a worker whose task ships through the gate: the gate run's state decides. Findings
 * come back as a refusal listing each finding (never as a landing), which the land guard turns into
 * decisions (gate-findings-decisions.ts); a passed run names its PR. Returns the state when passed.
 */
export async function landingGateCheck(args: { id: string; worktree: string; branch: string; env?: Record<string, string | undefined> }): Promise<GateRunState> {
  const s = await readGateRun(args.worktree, { branch: args.branch, env: args.env });
  if (s.status === 'unreadable') {
    throw new RefusedError('gate-unreadable', `could not read the no-mistakes gate run for ${args.id}: ${s.detail} Nothing was landed.`, { id: args.id, signal: s.signal });
  }
  if (s.status === 'no-run') {
    throw new RefusedError('gate-no-run', `no no-mistakes gate run for ${args.branch} (${s.detail}) The worker runs the gate command in its brief; nothing was landed.`, { id: args.id, signal: s.signal });
  }
  if (s.isParked || s.findings.length > 0) {
    throw new RefusedError(
      'gate-findings',
      `the review gate ${s.isParked ? `is parked${s.parkedOn ? ` on ${s.parkedOn}` : ''}` : 'reported findings'} for ${args.id} (${s.detail}) Each needs a decision:\n${s.findings.map((f) => `  - ${findingLine(f)}`).join('\n') || '  - (no findings listed; read the gate: no-mistakes axi status)'}\nAnswer them to the worker (hand send ${args.id} …); nothing was landed.`,
      { id: args.id, findings: s.findings, parkedOn: s.parkedOn, runId: s.runId },
    );
  }
  const outcome = (s.outcome ?? '').toLowerCase();
  if (!outcome.startsWith('passed')) {
    throw new RefusedError('gate-not-passed', `the review gate run ${s.runId ?? ''} for ${args.id} has not passed (${s.detail}) Nothing was landed.`, { id: args.id, outcome: s.outcome, runStatus: s.runStatus });
  }
  return s;
}

/**
 * Whether a worker's landing is a quick one: its delivery record says so, or the quick marker is
 * in the daemon's copy of its brief or in its report (a worker can only add the marker, which
 * makes its pull request a draft: the safe direction). The report is read as a stranger's file.
 */
export function isQuickLanding(briefPath: string, reportPath: string): boolean {
  if (readDelivery(briefPath)?.quick === true) return true;
  for (const path of [briefCopyPathOf(briefPath), reportPath]) {
    const r = readUntrustedFileSync(path, { maxBytes: 256 * 1024 });
    if (r.kind === 'read' && r.text.split('\n').some((l) => l.includes(QUICK_MARKER))) return true;
  }
  return false;
}
