import { UsageError } from '../contract/errors.ts';
import { MAX_DURATION_MS } from '../io/time/long-timer.ts';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses `90s`, `20m`, `1h30m`, `1500ms`, or a bare number of seconds. Zero and anything past
 * MAX_DURATION_MS are refused naming the flag (long ones are honoured by chained timers).
 */
export function parseDuration(value: string, flag: string): number {
  const ms = parseDurationText(value, flag);
  if (ms <= 0) throw new UsageError('bad-duration', `${flag} ${JSON.stringify(value)} is not a positive duration. Give a length of time, e.g. 30s, 20m, 1h30m.`, { flag, value });
  if (ms > MAX_DURATION_MS) {
    throw new UsageError('duration-too-long', `${flag} ${JSON.stringify(value)} is longer than the maximum of ${formatDuration(MAX_DURATION_MS)} (365 days).`, { flag, value, maxMs: MAX_DURATION_MS });
  }
  return ms;
}

function parseDurationText(value: string, flag: string): number {
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    total += Number(m[1]) * UNITS[m[2]!]!;
    matched = re.lastIndex;
  }
  if (matched === 0 || matched !== text.length) {
    throw new UsageError('bad-duration', `${flag} ${JSON.stringify(value)} is not a duration. Use a number with a unit, e.g. 30s, 20m, 1h30m, 500ms.`, { flag, value });
  }
  return Math.round(total);
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${s % 60 ? `${s % 60}s` : ''}`;
  return `${Math.floor(m / 60)}h${m % 60 ? `${m % 60}m` : ''}`;
}

/** `hand journal --since`: a duration back (2h) as sinceMs, anything else as the ISO time it names. */
export function journalSince(since: string | undefined): { sinceMs: number } | { since: string | undefined } {
  return since && /^\d+(ms|s|m|h|d)$/.test(since) ? { sinceMs: parseDuration(since, '--since') } : { since };
}
