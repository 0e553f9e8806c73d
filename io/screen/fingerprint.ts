/**
 * Progress fingerprint (control-plane §3.6 step 5): 16 lowercase hex of SHA-256 over the
 * normalised lines. Equal fingerprints over time = nothing happened; that is the only use.
 */
import * as crypto from 'node:crypto';
import type { Screen } from './types.ts';
import { normaliseScreen } from './normalise.ts';

export const FINGERPRINT_LENGTH = 16;

/**
 * SHA-256 hex of a UTF-8 string. The one-shot crypto.hash (Node >= 20.12) skips building a Hash
 * object, a third of the hash's cost on a 120x40 screen; older Nodes take the stream API.
 */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');

/** Fingerprint of already-normalised lines; '' when there is nothing to fingerprint. */
export function fingerprintLines(lines: readonly string[]): string {
  if (lines.length === 0) return '';
  return sha256Hex(lines.join('\n')).slice(0, FINGERPRINT_LENGTH);
}

export function fingerprintScreen(screen: Screen): string {
  return fingerprintLines(normaliseScreen(screen));
}
