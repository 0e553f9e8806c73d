/**
 * Where each installed agent stands against its last calibration (issue 39 item 2): the version
 * a dispatch would start now, beside the version recorded in calibration.json. What `hand
 * doctor`, the digest, the survey, the review page and dispatch say comes from here, once.
 */
import { realpathSync, statSync } from 'node:fs';
import { SITUATION_TITLES, type CalibrationRecordEntry, type CalibrationStanding } from '../../contract/methods/calibration.ts';
import { agentProfiles, type AgentProfile } from './profiles/index.ts';
import { readCalibrationRecord } from './calibration-record.ts';

type Env = Record<string, string | undefined>;

/** The command that calibrates (said in every notice). */
export const CALIBRATE_COMMAND = 'hand doctor --calibrate';

/**
 * `--version` of a binary, asked again only when the file changed (its real path, size and
 * time): the survey and the digest ask on every call, and an upgrade replaces the file.
 */
const versions = new Map<string, string | null>();

export async function installedVersion(profile: AgentProfile, env: Env): Promise<{ binary: string | null; version: string | null }> {
  const binary = profile.binary(env);
  if (binary === null) return { binary, version: null };
  let key: string | null = null;
  try {
    const real = realpathSync(binary);
    const st = statSync(real);
    key = `${profile.name}\0${real}\0${st.size}\0${st.mtimeMs}`;
  } catch {
    // not stat-able: asked every time
  }
  if (key !== null && versions.has(key)) return { binary, version: versions.get(key)! };
  const version = await profile.version(binary);
  if (key !== null && version !== null) versions.set(key, version);
  return { binary, version };
}

const day = (iso: string) => iso.slice(0, 10);

/** Where `agent` at `installed` stands against `last`, in one line. Pure. */
export function standingOf(agent: AgentProfile['name'], installed: string | null, last: CalibrationRecordEntry | null): CalibrationStanding {
  if (installed === null) {
    return { agent, installed, last, standing: 'unknown-version', line: `${agent}: its binary did not say its version, so whether kingshand reads it right is not known` };
  }
  if (last === null || last.version !== installed) {
    const before = last ? ` (last calibrated at ${last.version})` : '';
    return { agent, installed, last, standing: 'not-calibrated', line: `${agent} ${installed} not yet calibrated${before}: run ${CALIBRATE_COMMAND}` };
  }
  if (last.verdict === 'pass') {
    return { agent, installed, last, standing: 'calibrated', line: `${agent} ${installed} calibrated ${day(last.at)}: every situation read right` };
  }
  const where = last.wrong.map((w) => `${SITUATION_TITLES[w.situation]}${w.read ? ` (read ${w.read})` : w.outcome === 'not-reached' ? ' (not reached)' : ''}`).join(', ');
  return {
    agent, installed, last, standing: 'failed',
    line: `${agent} ${installed} failed calibration ${day(last.at)} at ${where || 'a situation'}: its workers may be misread there${last.evidence ? `; screens in ${last.evidence}` : ''}`,
  };
}

/** Every installed agent that has a calibration kit, against the record in `stateDir`. */
export async function calibrationStandings(env: Env, stateDir: string): Promise<CalibrationStanding[]> {
  const record = readCalibrationRecord(stateDir);
  const out: CalibrationStanding[] = [];
  for (const profile of agentProfiles()) {
    if (!profile.calibration) continue;
    const { binary, version } = await installedVersion(profile, env);
    if (binary === null) continue;
    out.push(standingOf(profile.name, version, record[profile.name] ?? null));
  }
  return out;
}

/** The standing of one agent, or null when it has no kit or is not installed (nothing to say at dispatch). */
export async function calibrationStandingOf(profile: AgentProfile, env: Env, stateDir: string): Promise<CalibrationStanding | null> {
  if (!profile.calibration) return null;
  const { binary, version } = await installedVersion(profile, env);
  if (binary === null) return null;
  return standingOf(profile.name, version, readCalibrationRecord(stateDir)[profile.name] ?? null);
}
