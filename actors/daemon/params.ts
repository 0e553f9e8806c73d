/**
 * Numeric wire parameters, checked in the daemon as well as in the CLI (a script may talk to the
 * socket directly). A refusal speaks in the flag a person typed, never in the wire name.
 */
import { UsageError } from '../../io/errors.ts';
import { MAX_DURATION_MS } from '../../io/time/long-timer.ts';

/** Wire name → what a person typed, and whether it is a duration in ms. */
const FLAGS: Record<string, { flag: string; duration: boolean }> = {
  timeoutMs: { flag: '--timeout', duration: true },
  stallMs: { flag: '--stall', duration: true },
  scrollback: { flag: '--scrollback', duration: false },
};

export function positiveParam(params: Record<string, unknown>, key: string, fallback: number): number {
  const v = params[key];
  if (v === undefined || v === null) return fallback;
  const known = FLAGS[key];
  const flag = known?.flag ?? key;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
    throw new UsageError('bad-request', `${flag} must be positive (got ${JSON.stringify(v)})${known?.duration ? ', e.g. 30s or 20m' : ''}.`, { key, flag });
  }
  if (known?.duration && v > MAX_DURATION_MS) {
    throw new UsageError('duration-too-long', `${flag} is longer than the maximum of ${MAX_DURATION_MS / 3_600_000}h (365 days).`, { key, flag, maxMs: MAX_DURATION_MS });
  }
  return v;
}
