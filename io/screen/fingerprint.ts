/**
 * Progress fingerprint (control-plane §3.6 step 5): 16 lowercase hex of SHA-256 over the
 * normalised lines. Equal fingerprints over time = nothing happened; that is the only use.
 */
import { createHash } from 'node:crypto';
import type { Screen } from './types.ts';
import { normaliseScreen } from './normalise.ts';

export const FINGERPRINT_LENGTH = 16;

/** Fingerprint of already-normalised lines; '' when there is nothing to fingerprint. */
export function fingerprintLines(lines: readonly string[]): string {
  if (lines.length === 0) return '';
  return createHash('sha256').update(lines.join('\n'), 'utf8').digest('hex').slice(0, FINGERPRINT_LENGTH);
}

export function fingerprintScreen(screen: Screen): string {
  return fingerprintLines(normaliseScreen(screen));
}
