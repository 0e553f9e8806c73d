/** When `hand audience` starts looking: --since as given, or the start of this Hand session. */
import { readFileSync } from 'node:fs';
import { UsageError } from '../contract/errors.ts';
import { parseDuration } from './durations.ts';
import type { HomePaths } from '../contract/home.ts';
import { sessionFile } from './commands/digest.ts';

/** --since: an ISO time, epoch milliseconds, or a duration back from now (2h, 30m). */
export function parseSince(value: string, now = Date.now()): number {
  if (/^\d{10,}$/.test(value)) return Number(value);
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) {
    const t = Date.parse(value);
    if (Number.isFinite(t)) return t;
  }
  try {
    return now - parseDuration(value, '--since');
  } catch {
    throw new UsageError('bad-since', `--since ${JSON.stringify(value)} is not a time. Use an ISO time (2026-12-01T08:00Z), epoch milliseconds, or a duration back from now (2h, 30m).`, { since: value });
  }
}

/** The start of this Hand session as the SessionStart hook recorded it, else 24 hours back. */
export function sessionStart(paths: HomePaths): { since: number; from: string } {
  try {
    const at = (JSON.parse(readFileSync(sessionFile(paths), 'utf8')) as { startedAt?: unknown }).startedAt;
    if (typeof at === 'number' && Number.isFinite(at)) return { since: at, from: 'session start' };
  } catch {
    // no session recorded
  }
  return { since: Date.now() - 24 * 3_600_000, from: 'the last 24 hours (no Hand session recorded)' };
}

