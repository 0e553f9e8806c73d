/**
 * The version each agent was last calibrated at (issue 39 item 2), kept in the state directory
 * as `calibration.json` (0600, written whole under a fresh name and renamed, so a reader never
 * sees half of it): one entry per agent, replaced by each calibration of that agent. A small
 * file rather than a table: `hand doctor` reads it without a daemon, and nothing else joins it.
 * A file that is missing, damaged or too large reads as no calibration at all (never as a pass).
 */
import { join } from 'node:path';
import { AGENTS, type AgentName } from '../../contract/vocabulary.ts';
import { CALIBRATION_SITUATIONS, type AgentCalibration, type CalibrationRecordEntry } from '../../contract/methods/calibration.ts';
import { readUntrustedFileSync } from '../fs/untrusted-file.ts';
import { writeTextAtomically } from '../fs/atomic-text.ts';

export type CalibrationRecord = Partial<Record<AgentName, CalibrationRecordEntry>>;

export const calibrationRecordPath = (stateDir: string): string => join(stateDir, 'calibration.json');

/** Far more than three agents' entries ever take. */
const RECORD_CAP = 256 * 1024;

const isString = (v: unknown): v is string => typeof v === 'string';

function entryOf(v: unknown): CalibrationRecordEntry | null {
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  if (!isString(o.version) || !isString(o.at) || (o.verdict !== 'pass' && o.verdict !== 'fail') || !Array.isArray(o.wrong)) return null;
  const wrong = o.wrong
    .filter((w): w is Record<string, unknown> => Boolean(w) && typeof w === 'object')
    .filter((w) => (CALIBRATION_SITUATIONS as readonly unknown[]).includes(w.situation))
    .map((w) => ({
      situation: w.situation as CalibrationRecordEntry['wrong'][number]['situation'],
      read: isString(w.read) ? w.read : null,
      outcome: w.outcome === 'not-reached' ? ('not-reached' as const) : ('wrong' as const),
    }));
  return { version: o.version, at: o.at, verdict: o.verdict, wrong, evidence: isString(o.evidence) ? o.evidence : null };
}

export function readCalibrationRecord(stateDir: string): CalibrationRecord {
  const r = readUntrustedFileSync(calibrationRecordPath(stateDir), { maxBytes: RECORD_CAP });
  if (r.kind !== 'read' || r.truncated) return {};
  let json: unknown;
  try {
    json = JSON.parse(r.text);
  } catch {
    return {};
  }
  const agents = (json as { agents?: unknown } | null)?.agents;
  if (!agents || typeof agents !== 'object') return {};
  const out: CalibrationRecord = {};
  for (const name of AGENTS) {
    const entry = entryOf((agents as Record<string, unknown>)[name]);
    if (entry) out[name] = entry;
  }
  return out;
}

/** What the record keeps of one calibration. */
export function recordEntryOf(c: AgentCalibration): CalibrationRecordEntry | null {
  if (c.version === null) return null;
  const wrong = c.situations
    .filter((s) => s.outcome === 'wrong' || s.outcome === 'not-reached')
    .map((s) => ({ situation: s.situation, read: s.read, outcome: s.outcome as 'wrong' | 'not-reached' }));
  return { version: c.version, at: c.at, verdict: c.verdict, wrong, evidence: c.evidence };
}

/** Records these calibrations, each replacing its agent's entry; the other agents' entries stay. */
export function recordCalibrations(stateDir: string, done: readonly AgentCalibration[]): CalibrationRecord {
  const record = readCalibrationRecord(stateDir);
  for (const c of done) {
    const entry = recordEntryOf(c);
    if (entry) record[c.agent] = entry;
  }
  writeTextAtomically(calibrationRecordPath(stateDir), `${JSON.stringify({ agents: record }, null, 2)}\n`, { mode: 0o600 });
  return record;
}
