/**
 * Writing a JSON file atomically (io/fs/atomic-text.ts), the temp file re-parsed and checked by
 * the caller before it replaces the target.
 */
import { writeTextAtomically } from '../../fs/atomic-text.ts';

export function writeJsonAtomically(target: string, text: string, opts: { mode?: number; verify?: (written: unknown) => void } = {}): void {
  const verify = opts.verify;
  writeTextAtomically(target, text, { ...(opts.mode !== undefined ? { mode: opts.mode } : {}), ...(verify ? { verify: (written: string) => verify(JSON.parse(written)) } : {}) });
}
