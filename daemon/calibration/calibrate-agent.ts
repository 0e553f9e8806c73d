/**
 * One agent's calibration from end to end: its binary and version as a dispatch would find them,
 * its fake model API, the scratch worker (scratch-worker.ts), the witness's ear, the drive
 * (drive.ts), the verdict, and on a fail the evidence folder. Everything it started is ended and
 * removed whatever happens; a step that throws fails the agent with the error said, never the
 * daemon.
 */
import { CALIBRATION_SITUATIONS, SITUATION_TITLES, type AgentCalibration, type CalibrateProgress, type CalibrationSkipped, type SituationResult } from '../../contract/methods/calibration.ts';
import type { AgentProfile } from '../../io/agent/profiles/index.ts';
import { screenReaderOf } from '../../io/agent/profiles/index.ts';
import { getProfile } from '../../io/screen/index.ts';
import type { SandboxAvailability } from '../../io/sandbox/availability.ts';
import { CALIBRATION_BUDGET_MS, driveCalibration, type Judged, type ScreenReader } from './drive.ts';
import { writeEvidence } from './evidence.ts';
import { agentLogTail } from './agent-log.ts';
import { paneSession } from './pane-session.ts';
import { startScratchWorker, type Env } from './scratch-worker.ts';
import { listenForWitness, type WitnessListener } from './witness-listener.ts';
import { describeExpectation, expectationOf } from './expectations.ts';

export interface CalibrateAgentDeps {
  daemonEnv: Env;
  sandbox: SandboxAvailability;
  backend: 'tmux' | 'pty';
  /** Where evidence folders go (`<state>/calibration`). */
  evidenceRoot: string;
  /**
   * The reader a worker of this agent at this version gets: its profile's screen reader
   * (io/agent/profiles screenReaderOf). A test hands one that misreads a situation.
   */
  readerFor?(profile: AgentProfile, version: string): ScreenReader;
  onProgress?(p: CalibrateProgress): void;
  /** The run's bound (default CALIBRATION_BUDGET_MS). */
  budgetMs?: number;
  /** Stops the run early; what was started is still ended and removed. */
  signal?: AbortSignal;
  /** Where the run's scratch directory is made (default the system's temp directory); removed at the end. */
  scratchParent?: string;
}

export const defaultReader = (profile: AgentProfile, version: string): ScreenReader => getProfile(screenReaderOf(profile.name, version));

export function isSkipped(r: AgentCalibration | CalibrationSkipped): r is CalibrationSkipped {
  return 'reason' in r;
}

/** Why `profile` cannot be calibrated here, or its binary and version. */
export async function calibrationTarget(profile: AgentProfile, env: Env): Promise<CalibrationSkipped | { binary: string; version: string }> {
  const skip = (reason: string): CalibrationSkipped => ({ agent: profile.name, label: profile.label, reason });
  if (!profile.calibration) return skip("its screens are kingshand's own copy of Claude Code's: no release of anyone else's to calibrate");
  const binary = profile.binary(env);
  if (binary === null) return skip(`not installed (install it with: ${profile.install})`);
  const version = await profile.version(binary);
  if (version === null) return skip(`${binary} did not say its version (--version): there is no version to calibrate against`);
  return { binary, version };
}

export async function calibrateAgent(profile: AgentProfile, deps: CalibrateAgentDeps): Promise<AgentCalibration | CalibrationSkipped> {
  const target = await calibrationTarget(profile, deps.daemonEnv);
  if ('reason' in target) return target;
  const kit = profile.calibration!;
  const started = Date.now();
  const result: AgentCalibration = {
    agent: profile.name, label: profile.label, version: target.version, binary: target.binary, verdict: 'fail', situations: [], evidence: null,
    backend: deps.backend, sandboxed: deps.sandbox.ok, sandboxNote: null, at: new Date(started).toISOString(), ms: 0,
  };
  const say = (situation: CalibrateProgress['situation'], line: string) => deps.onProgress?.({ agent: profile.name, situation, line });
  say(null, `${profile.label} ${target.version} (${target.binary}): calibrating on ${deps.backend}${deps.sandbox.ok ? " in kingshand's sandbox" : ''}`);
  const judged: Judged[] = [];
  let failure: string | null = null;
  let agentLog: string | null = null;
  const fake = await kit.startFake();
  let witness: WitnessListener | null = null;
  let worker: Awaited<ReturnType<typeof startScratchWorker>> | null = null;
  try {
    worker = await startScratchWorker({
      profile, kit, version: target.version, fakeUrl: fake.url, daemonEnv: deps.daemonEnv, sandbox: deps.sandbox, backend: deps.backend,
      ...(deps.scratchParent ? { scratchParent: deps.scratchParent } : {}),
      beforeLaunch: async (stateDir, id) => {
        witness = await listenForWitness(stateDir, id);
      },
    });
    result.sandboxNote = worker.sandboxNote;
    const session = paneSession(worker.host, worker.paneId);
    try {
      const budgetMs = deps.budgetMs ?? CALIBRATION_BUDGET_MS;
      judged.push(...await driveCalibration({
        session, fake, kit, witness: witness!, reader: (deps.readerFor ?? defaultReader)(profile, target.version),
        exitCommand: profile.exitCommand, label: profile.label, backend: deps.backend,
        deadline: started + budgetMs,
        budgetMs,
        ...(deps.signal ? { signal: deps.signal } : {}),
        onJudged: (j) => say(j.result.situation, lineOf(j.result)),
      }));
    } finally {
      session.dispose();
    }
  } catch (err) {
    failure = `the calibration could not run: ${err instanceof Error ? err.message : String(err)}`;
    say(null, failure);
  } finally {
    await (witness as WitnessListener | null)?.close();
    // What the agent logged, read before its files go, kept only when something went wrong.
    const missed = failure !== null || judged.length < CALIBRATION_SITUATIONS.length || judged.some((j) => j.result.outcome === 'wrong' || j.result.outcome === 'not-reached');
    const logDir = missed && worker ? kit.agentLogDir?.(worker.launchEnv) : null;
    if (logDir) agentLog = agentLogTail(logDir);
    await worker?.cleanup().catch(() => undefined);
    await fake.close();
  }
  // A run cut short leaves no situation unsaid: each one missing is not reached, with why.
  const seen = new Set(judged.map((j) => j.result.situation));
  for (const situation of CALIBRATION_SITUATIONS) {
    if (seen.has(situation)) continue;
    judged.push({ result: { situation, outcome: 'not-reached', expected: describeExpectation(expectationOf(situation)), read: null, witness: null, note: failure ?? 'the calibration ended before it', ms: 0 }, screen: null, reading: null });
  }
  result.situations = judged.map((j) => j.result);
  result.verdict = result.situations.every((r) => r.outcome === 'right' || r.outcome === 'not-applicable') ? 'pass' : 'fail';
  result.ms = Date.now() - started;
  // A run stopped halfway says nothing about the agent: no evidence folder for it.
  if (result.verdict === 'fail' && !deps.signal?.aborted) result.evidence = writeEvidence(deps.evidenceRoot, result, judged, failure, agentLog);
  say(null, `${profile.label} ${target.version}: ${result.verdict === 'pass' ? 'PASS' : 'FAIL'} in ${(result.ms / 1000).toFixed(1)} s${result.evidence ? `; screens saved in ${result.evidence}` : ''}`);
  return result;
}

const MARK: Record<SituationResult['outcome'], string> = { right: 'right', wrong: 'WRONG', 'not-reached': 'NOT REACHED', 'not-applicable': 'n/a' };

/** One situation in one line: "working  right  (read working; hook said working)". */
export function lineOf(r: SituationResult): string {
  const hook = r.witness ? `; hook said ${r.witness.heard.join(', ') || 'nothing'}` : '';
  const what = r.outcome === 'not-applicable' ? r.note ?? '' : r.outcome === 'right' ? `read ${r.read}${hook}` : `expected ${r.expected}, read ${r.read ?? 'nothing'}${hook}${r.note ? ` — ${r.note}` : ''}`;
  return `${SITUATION_TITLES[r.situation].padEnd(17)} ${MARK[r.outcome].padEnd(11)} ${what}`;
}
