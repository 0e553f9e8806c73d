/**
 * One calibration of a real agent for a test: the product's own calibrateAgent with the pinned
 * binary, the machine's sandbox where it can be built (as a worker here gets it), its scratch
 * directory and evidence folder inside a kh-test- temp dir so the test sees that the scratch is
 * gone afterwards and what evidence was written.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { dirname, join } from 'node:path';
import { CALIBRATION_SITUATIONS, type AgentCalibration, type CalibrationSituation, type SituationResult } from '../../contract/methods/calibration.ts';
import { agentProfile } from '../../io/agent/profiles/index.ts';
import { probeSandbox } from '../../io/sandbox/availability.ts';
import { calibrateAgent, isSkipped, type CalibrateAgentDeps } from '../../daemon/calibration/calibrate-agent.ts';
import { AGENT_LOG_FILE } from '../../daemon/calibration/evidence.ts';
import { makeTempDir } from '../helpers/temp.ts';

/** The daemon environment a person's daemon has, without the person's own agent variables. */
export const CALIBRATION_DAEMON_ENV = { PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`, USER: 'kh-tester' };

export interface CalibrationRun {
  result: AgentCalibration;
  /** What remained of the scratch directory's contents afterwards (nothing, when cleaned up). */
  scratchLeft: string[];
  evidenceRoot: string;
  cleanup(): void;
}

/** Call once at a file's top: the returned function runs a calibration whose files are removed after the file's tests. */
export function useCalibrationRuns(): (agent: string, opts?: Parameters<typeof runCalibration>[1]) => Promise<CalibrationRun> {
  const runs: CalibrationRun[] = [];
  afterAll(() => {
    for (const r of runs.splice(0)) r.cleanup();
  });
  return async (agent, opts) => {
    const run = await runCalibration(agent, opts);
    runs.push(run);
    return run;
  };
}

/** `env`: more of the daemon's environment (an agent found by HAND_<AGENT>_BIN where node_modules has none). */
export async function runCalibration(agent: string, opts: Partial<Pick<CalibrateAgentDeps, 'backend' | 'readerFor' | 'budgetMs'>> & { env?: Record<string, string> } = {}): Promise<CalibrationRun> {
  const tmp = makeTempDir(`calibrate-${agent}`);
  const scratch = join(tmp.path, 'scratch');
  const evidenceRoot = join(tmp.path, 'evidence');
  try {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(scratch);
    const r = await calibrateAgent(agentProfile(agent), {
      daemonEnv: { ...CALIBRATION_DAEMON_ENV, ...opts.env },
      sandbox: probeSandbox({ ...CALIBRATION_DAEMON_ENV, ...opts.env }),
      backend: opts.backend ?? 'tmux',
      evidenceRoot,
      scratchParent: scratch,
      ...(opts.readerFor ? { readerFor: opts.readerFor } : {}),
      ...(opts.budgetMs ? { budgetMs: opts.budgetMs } : {}),
    });
    if (isSkipped(r)) throw new Error(`${agent} was not calibrated: ${r.reason}`);
    return { result: r, scratchLeft: readdirSync(scratch), evidenceRoot, cleanup: tmp.cleanup };
  } catch (err) {
    tmp.cleanup();
    throw err;
  }
}

/** Each situation with its outcome, for one readable assertion. */
export const outcomes = (r: AgentCalibration): Record<CalibrationSituation, SituationResult['outcome']> =>
  Object.fromEntries(r.situations.map((s) => [s.situation, s.outcome])) as Record<CalibrationSituation, SituationResult['outcome']>;

/** Every situation said, for a failure message that explains itself. */
export const explain = (r: AgentCalibration): string =>
  r.situations.map((s) => `${s.situation}: ${s.outcome} — read ${s.read}; ${s.note ?? ''}${s.witness ? ` (hook ${s.witness.heard.join(',')})` : ''}`).join('\n');

/**
 * The screens a failed calibration kept (its evidence folder) of every situation read wrong or not reached,
 * each as the agent left it: what a flaky failure in the suite needs to be understood afterwards.
 */
export function unrightScreens(r: AgentCalibration): string {
  const dir = r.evidence;
  if (!dir || !existsSync(dir)) return '';
  const wrong = new Set(r.situations.filter((x) => x.outcome === 'wrong' || x.outcome === 'not-reached').map((x) => x.situation));
  const screens = readdirSync(dir)
    .filter((f) => f.endsWith('.txt') && !f.endsWith('.ansi.txt') && wrong.has(f.replace(/^\d+-/, '').replace(/\.txt$/, '') as CalibrationSituation))
    .map((f) => `\n--- ${f}\n${readFileSync(join(dir, f), 'utf8').split('\n').map((l) => l.trimEnd()).filter(Boolean).join('\n').slice(0, 4000)}`)
    .join('');
  // And what the agent logged meanwhile (its last lines), where its kit keeps its log.
  const log = join(dir, AGENT_LOG_FILE);
  const tail = existsSync(log) ? `\n--- ${AGENT_LOG_FILE} (last lines)\n${readFileSync(log, 'utf8').trimEnd().split('\n').slice(-60).join('\n')}` : '';
  return screens + tail;
}

/** Where the hook witness spoke, whether it said what the situation is: `{ working: true, … }`. */
export const witnessHeard = (r: AgentCalibration): Partial<Record<CalibrationSituation, boolean>> =>
  Object.fromEntries(r.situations.filter((s) => s.witness).map((s) => [s.situation, s.witness!.ok]));

/** One situation's result (the calibration has it: a missing one fails here, naming it). */
export function situationOf(r: AgentCalibration, situation: CalibrationSituation): SituationResult {
  const found = r.situations.find((s) => s.situation === situation);
  if (!found) throw new Error(`the calibration has no ${situation} situation:\n${explain(r)}`);
  return found;
}

export const evidenceExists = (root: string) => existsSync(root);

/**
 * What a full pass is for an agent that has every situation: its pinned version, every situation
 * read right, the hook witness heard exactly where `heard` says (and right there), a pass, no
 * evidence written, under a minute, nothing left in the scratch directory. Gives the result for
 * the agent's own checks.
 */
export function expectAFullPass(run: CalibrationRun, a: { pinned: string; heard: Partial<Record<CalibrationSituation, boolean>> }): AgentCalibration {
  const r = run.result;
  expect(r.version).toBe(a.pinned);
  expect(outcomes(r), explain(r)).toEqual(Object.fromEntries(CALIBRATION_SITUATIONS.map((s) => [s, 'right'])));
  expect(witnessHeard(r), explain(r)).toEqual(a.heard);
  expect(r.verdict).toBe('pass');
  expect(r.evidence).toBeNull();
  expect(evidenceExists(run.evidenceRoot)).toBe(false);
  expect(r.ms).toBeLessThan(60_000);
  expect(run.scratchLeft).toEqual([]);
  return r;
}

/** The pinned agents' bound in the suite: inside the test's own 120 s, twice the product's minute. */
const PINNED_BUDGET_MS = 110_000;

/** An Anthropic-speaking agent whose pinned release must calibrate (OpenCode, Qwen Code). */
export interface PinnedAgent {
  agent: string;
  label: string;
  pinned: string;
  /** What its second witness is called (its plugin, its hooks). */
  witness: string;
  /** The daemon's environment that finds its binary. */
  env: () => Record<string, string>;
}

/**
 * The one test of a pinned agent's calibration: every situation it has read right, its witness
 * heard, nothing left behind. One file an agent, so the suite runs them side by side.
 */
export function calibratesAsPinned(a: PinnedAgent): void {
  const calibrate = useCalibrationRuns();
  describe(`${a.label} ${a.pinned} calibrates`, () => {
    it(`every situation it has read right; its ${a.witness} heard`, async () => {
      // What is judged here is the readings, not the clock: the product's bound (one minute, what
      // a person waits) cut OpenCode's run at its last situation when it ran beside four other
      // heavy files on two cores (25 s alone, 52–61 s there), and the run ended failed.
      const run = await calibrate(a.agent, { env: a.env(), budgetMs: PINNED_BUDGET_MS });
      const r = run.result;
      expect(r.version).toBe(a.pinned);
      const got = outcomes(r);
      expect(Object.values(got).every((o) => o === 'right'), explain(r) + unrightScreens(r)).toBe(true);
      expect(Object.keys(got), explain(r)).toEqual(expect.arrayContaining(['typed-text', 'idle', 'working', 'finished', 'permission', 'question', 'exit']));
      const heard = r.situations.filter((s) => s.witness);
      expect(heard.length, explain(r)).toBeGreaterThan(0);
      expect(heard.every((s) => s.witness!.ok), explain(r)).toBe(true);
      expect(r.verdict).toBe('pass');
      expect(r.evidence).toBeNull();
      expect(run.scratchLeft).toEqual([]);
    }, 120_000);
  });
}
