/**
 * Turning SQLite values back into the port's types without trusting them. A row damaged by
 * hand or by a crashed older build must come back as *something* (the fleet host reports and
 * skips what it cannot use); it must never throw inside a list that the whole fleet reads.
 */
import type { ProjectRecord, Posture, WorkerRow } from './types.ts';

/** Text as stored; a BLOB (written by some other tool) is read as UTF-8, a number as its digits. */
export function asText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  return String(v);
}

export function asInt(v: unknown): number | null {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v);
  return null;
}

/** JSON written by the journal; text that does not parse is returned as the text itself. */
export function parseStoredJson(v: unknown): unknown {
  const text = asText(v);
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** JSON text for a column; `undefined` (e.g. no previous state) is stored as SQL NULL. */
export function toJsonColumn(v: unknown): string | null {
  const text = JSON.stringify(v);
  return text === undefined ? null : text;
}

export function projectFromRow(r: Record<string, unknown>): ProjectRecord {
  return {
    name: asText(r.name) ?? '',
    repo: asText(r.repo) ?? '',
    posture: (asText(r.posture) ?? 'local-only') as Posture,
    yolo: asInt(r.yolo) === 1,
    registeredAt: asInt(r.registered_at) ?? 0,
    permissions: (asText(r.permissions) ?? 'off') as ProjectRecord['permissions'],
    // Stored only through the daemon's edge, which refuses an unknown agent; NULL = no default.
    defaultAgent: (asText(r.default_agent) ?? null) as ProjectRecord['defaultAgent'],
    // Absent in a row from before migration 10, and NULL when never set: no budget, lost workers wait for the person.
    ...(typeof r.budget_usd_per_day === 'number' && r.budget_usd_per_day > 0 ? { budgetUsdPerDay: r.budget_usd_per_day } : {}),
    ...(asText(r.resume_lost) === 'auto' ? { resumeLost: 'auto' as const } : {}),
  };
}

export function workerFromRow(r: Record<string, unknown>): WorkerRow {
  return {
    id: asText(r.id) ?? '',
    project: asText(r.project) ?? '',
    repo: asText(r.repo) ?? '',
    worktree: asText(r.worktree) ?? '',
    branch: asText(r.branch) ?? '',
    base: asText(r.base) ?? '',
    backend: (asText(r.backend) ?? 'tmux') as WorkerRow['backend'],
    agent: asText(r.agent) ?? '',
    // present only when dispatch recorded one, so intents without it round-trip unchanged
    ...(asText(r.agent_version) !== null ? { agentVersion: asText(r.agent_version) } : {}),
    briefPath: asText(r.brief_path) ?? '',
    reportPath: asText(r.report_path) ?? '',
    createdAt: asInt(r.created_at) ?? 0,
    // present only for a worker on another host, so local intents round-trip unchanged
    ...(asText(r.host) !== null ? { host: asText(r.host)! } : {}),
    ...(asText(r.far_dir) !== null ? { farDir: asText(r.far_dir)! } : {}),
    ...(asText(r.pane_server) !== null ? { paneServer: asText(r.pane_server)! } : {}),
    // present only for a launch that continues an agent session (hand relaunch --resume)
    ...(asText(r.resume_session) !== null ? { resumeSession: asText(r.resume_session)! } : {}),
    snapshotJson: asText(r.snapshot_json),
    snapshotVersion: asInt(r.snapshot_version),
    updatedAt: asInt(r.updated_at) ?? 0,
  };
}
