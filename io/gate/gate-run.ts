/**
 * Reads the state of a no-mistakes gate run (workflow §6.2): `no-mistakes axi status [--run id]`
 * in the repository, argv only, 30 s bound, never throws. The output is TOON, decoded strictly by
 * the reference implementation (@toon-format/toon) into JSON, and only JSON is read. Three
 * statuses: has-run, no-run, unreadable. Parked = `run.awaiting_agent` present OR a top-level
 * `gate` present — never from counts, step statuses or time. The exit code is recorded, never
 * decides (the tool exits 1 both for "no such run" and for a failed run). A far worker's run is
 * read on its host (git-place.ts), by the far account's no-mistakes in the far worktree.
 */
import { decode } from '@toon-format/toon';
import { findExecutable } from '../git/landing-pr.ts';
import { farTarget } from '../git/git-place.ts';
import { FAR_TOOL_PATH, runFarTool } from '../ssh/far-tool.ts';

export interface GateFinding {
  id: string;
  severity: string;
  file: string;
  line: string;
  action: string;
  description: string;
}

export interface GateRunState {
  status: 'has-run' | 'no-run' | 'unreadable';
  signal: 'no-output' | 'undecodable-output' | 'not-a-gate-response' | 'lookup-failed' | 'gate-response' | 'no-run-reported' | 'wrong-branch' | 'run-reported';
  detail: string;
  runId: string | null;
  branch: string | null;
  pr: string | null;
  runStatus: string | null;
  outcome: string | null;
  findingsSummary: string | null;
  isParked: boolean;
  parkedOn: string | null;
  findings: GateFinding[];
  exitCode: number | null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : null);

function findingsOf(list: unknown): GateFinding[] {
  if (!Array.isArray(list)) return [];
  return list.filter(isObj).map((f) => ({
    id: text(f.id) ?? '?', severity: text(f.severity) ?? '', file: text(f.file) ?? '', line: text(f.line) ?? '', action: text(f.action) ?? '', description: text(f.description) ?? '',
  }));
}

/** Reads a decoded `axi status` document (pure: the rules of §6.2 without the process). */
export function readGateDocument(doc: unknown, opts: { branch?: string; exitCode?: number | null } = {}): GateRunState {
  const base: GateRunState = {
    status: 'unreadable', signal: 'not-a-gate-response', detail: '', runId: null, branch: null, pr: null, runStatus: null, outcome: null, findingsSummary: null,
    isParked: false, parkedOn: null, findings: [], exitCode: opts.exitCode ?? null,
  };
  if (!isObj(doc)) return { ...base, detail: 'the gate answered with something that is not a status document.' };
  const run = isObj(doc.run) ? doc.run : null;
  const gate = doc.gate;
  const gateObj = isObj(gate) ? gate : null;
  const gateStep = typeof gate === 'string' ? gate : gateObj ? text(gateObj.step) : null;
  // Findings from the first present location: gate.findings, findings, run.findings as a table.
  const findings = gateObj && gateObj.findings !== undefined ? findingsOf(gateObj.findings) : doc.findings !== undefined ? findingsOf(doc.findings) : run && Array.isArray(run.findings) ? findingsOf(run.findings) : [];
  if (!run) {
    if (gate !== undefined) return { ...base, status: 'has-run', signal: 'gate-response', detail: `the gate is parked at ${gateStep ?? 'a step'} with no run reported.`, isParked: true, parkedOn: gateStep, findings };
    return { ...base, status: 'no-run', signal: 'no-run-reported', detail: 'no gate run is reported for this repository.' };
  }
  const s: GateRunState = {
    ...base,
    status: 'has-run',
    signal: 'run-reported',
    runId: text(run.id),
    branch: text(run.branch),
    pr: text(run.pr),
    runStatus: text(run.status),
    outcome: text(run.outcome),
    findingsSummary: typeof run.findings === 'string' ? run.findings : null,
    isParked: Object.hasOwn(run, 'awaiting_agent') || gate !== undefined,
    parkedOn: gateStep ?? (Object.hasOwn(run, 'awaiting_agent') ? text(run.awaiting_agent) : null),
    findings,
  };
  if (opts.branch && s.branch !== null && s.branch !== opts.branch) {
    return { ...base, status: 'no-run', signal: 'wrong-branch', detail: `the latest gate run is on ${s.branch}, not ${opts.branch}.` };
  }
  s.detail = `run ${s.runId ?? '?'} on ${s.branch ?? '?'}: ${s.runStatus ?? 'status unknown'}${s.outcome ? `, outcome ${s.outcome}` : ''}${s.isParked ? `, parked${s.parkedOn ? ` on ${s.parkedOn}` : ''}` : ''}${findings.length ? `, ${findings.length} finding(s)` : ''}.`;
  return s;
}

/** `no-mistakes axi status` where the worktree is: here with `env`, or on the far host io/git runs on now, as its account (far-tool.ts). */
async function runStatus(cwd: string, args: string[], env: Record<string, string | undefined>): Promise<{ exitCode: number | null; stdout: string; stderr: string } | string> {
  const far = farTarget();
  if (far) {
    const r = await runFarTool(far, cwd, 'no-mistakes', args, {}, 30_000);
    // env's own "not found" (127): the far account has no no-mistakes on its PATH.
    if (r.exitCode === 127) return `no-mistakes is not on the PATH of ${far.user}@${far.address} (${FAR_TOOL_PATH}), so the gate run there cannot be read.`;
    return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.error ?? r.stderr };
  }
  const bin = findExecutable('no-mistakes', env);
  if (!bin) return 'no-mistakes is not on PATH, so the gate run cannot be read.';
  const { execa } = await import('execa'); // loaded when first needed: its load is a tenth of a second (io/process/run-argv.ts)
  const r = await execa(bin, args, { cwd, reject: false, stdin: 'ignore', timeout: 30_000, env: env as NodeJS.ProcessEnv, extendEnv: false });
  return { exitCode: typeof r.exitCode === 'number' ? r.exitCode : null, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? r.shortMessage ?? '') };
}

export async function readGateRun(cwd: string, opts: { branch?: string; runId?: string; env?: Record<string, string | undefined> } = {}): Promise<GateRunState> {
  const env = opts.env ?? process.env;
  const empty = readGateDocument(null);
  const args = ['axi', 'status', ...(opts.runId ? ['--run', opts.runId] : [])];
  const r = await runStatus(cwd, args, env);
  if (typeof r === 'string') return { ...empty, signal: 'lookup-failed', detail: r };
  const exitCode = r.exitCode;
  const out = r.stdout;
  if (out.trim() === '') {
    const why = r.stderr.trim();
    return { ...empty, exitCode, signal: exitCode === null ? 'lookup-failed' : 'no-output', detail: `no-mistakes axi status printed nothing${why ? ` (${why.split('\n')[0]})` : ''}.` };
  }
  let doc: unknown;
  try {
    doc = decode(out, { strict: true });
  } catch (err) {
    return { ...empty, exitCode, signal: 'undecodable-output', detail: `the gate's status output is not readable TOON: ${(err as Error).message}` };
  }
  return readGateDocument(doc, { branch: opts.branch, exitCode });
}
