/**
 * The daemon's `calibrate` method (`hand doctor --calibrate`, the MCP `calibrate` tool, and the
 * daemon's own start with HAND_CALIBRATE_AUTO=1): the agents asked for, one after another (two
 * cores: agents calibrated side by side would slow each other past their bounds), each recorded
 * in the state directory's calibration.json as it finishes. One calibration at a time per
 * daemon: a second call waits for the first, then runs.
 */
import { join } from 'node:path';
import { EVERY_AGENT, type AgentCalibration, type CalibrateParams, type CalibrateProgress, type CalibrateResult, type CalibrationSkipped } from '../../contract/methods/calibration.ts';
import type { MethodTable } from '../../contract/protocol.ts';
import { agentProfile, agentProfiles } from '../../io/agent/profiles/index.ts';
import { recordCalibrations } from '../../io/agent/calibration-record.ts';
import { calibrationStandingOf } from '../../io/agent/calibration-standing.ts';
import type { SandboxAvailability } from '../../io/sandbox/availability.ts';
import { calibrateAgent, defaultReader, isSkipped, type CalibrateAgentDeps } from './calibrate-agent.ts';
import { misreading, MISREAD_ENV, parseMisreadings } from './misreading-reader.ts';
import type { Env } from './scratch-worker.ts';

/** `HAND_CALIBRATE_AUTO=1` in the daemon's environment: at start, calibrate each agent whose installed version was not calibrated yet. */
export const CALIBRATE_AUTO_ENV = 'HAND_CALIBRATE_AUTO';

export interface CalibrationDeps {
  /** The state directory: calibration.json and the evidence folders (`calibration/`) live there. */
  home: string;
  env: Env;
  sandbox(): SandboxAvailability;
  tmuxAvailable: boolean;
  /** A test hands a reader that misreads (calibrate-agent.ts). */
  readerFor?: CalibrateAgentDeps['readerFor'];
  budgetMs?: number;
}

/** Aborted when either is (AbortSignal.any is newer than the Node 20 kingshand supports). */
function eitherSignal(a: AbortSignal, b: AbortSignal | undefined): AbortSignal {
  if (!b) return a;
  const both = new AbortController();
  const stop = () => both.abort();
  if (a.aborted || b.aborted) stop();
  a.addEventListener('abort', stop, { once: true });
  b.addEventListener('abort', stop, { once: true });
  return both.signal;
}

export function createCalibrator(deps: CalibrationDeps) {
  let lane: Promise<unknown> = Promise.resolve();
  const stopping = new AbortController();
  // The calibration's own fault injection (misreading-reader.ts): empty outside its tests.
  const misread = parseMisreadings(deps.env[MISREAD_ENV]);
  const readerFor: CalibrateAgentDeps['readerFor'] = deps.readerFor ?? (misread.size === 0 ? undefined : (profile, version) => {
    const map = misread.get(profile.name);
    return map ? misreading(defaultReader(profile, version), map) : defaultReader(profile, version);
  });

  async function runNow(p: CalibrateParams, progress: (p: CalibrateProgress) => void, callerGone?: AbortSignal): Promise<CalibrateResult> {
    const signal = eitherSignal(stopping.signal, callerGone);
    const profiles = p.agent && p.agent !== EVERY_AGENT ? [agentProfile(p.agent)] : agentProfiles();
    const backend = p.backend ?? (deps.tmuxAvailable ? 'tmux' : 'pty');
    const agents: AgentCalibration[] = [];
    const skipped: CalibrationSkipped[] = [];
    for (const profile of profiles) {
      if (signal.aborted) break;
      if (p.auto) {
        // Only what changed: an agent calibrated (or failed) at its installed version is not run again.
        const standing = await calibrationStandingOf(profile, deps.env, deps.home);
        if (standing && standing.standing !== 'not-calibrated') {
          skipped.push({ agent: profile.name, label: profile.label, reason: `${standing.line} (--auto runs only what changed)` });
          continue;
        }
      }
      const r = await calibrateAgent(profile, {
        daemonEnv: deps.env, sandbox: deps.sandbox(), backend, evidenceRoot: join(deps.home, 'calibration'),
        onProgress: progress, signal, ...(readerFor ? { readerFor } : {}), ...(deps.budgetMs ? { budgetMs: deps.budgetMs } : {}),
      });
      if (isSkipped(r)) skipped.push(r);
      // A run stopped halfway is no verdict on the agent: returned, never recorded.
      else if (signal.aborted) agents.push(r);
      else {
        agents.push(r);
        // Recorded as each agent finishes: a daemon stopped halfway keeps what was learnt.
        recordCalibrations(deps.home, [r]);
      }
    }
    return { ok: agents.every((a) => a.verdict === 'pass'), agents, skipped };
  }

  /** Runs after any calibration already under way; `callerGone` stops this one early. */
  function calibrate(p: CalibrateParams, progress: (p: CalibrateProgress) => void = () => undefined, callerGone?: AbortSignal): Promise<CalibrateResult> {
    const mine = lane.catch(() => undefined).then(() => runNow(p, progress, callerGone));
    lane = mine;
    return mine;
  }

  return {
    calibrate,
    handlers: (): Pick<MethodTable, 'calibrate'> => ({
      calibrate: (p, ctx) => calibrate(p, (line) => ctx.progress(line), ctx.signal),
    }),
    /** The daemon stops: a calibration under way ends at once (its agent, pane and files removed). */
    async close(): Promise<void> {
      stopping.abort();
      await lane.catch(() => undefined);
    },
  };
}

export type Calibrator = ReturnType<typeof createCalibrator>;
