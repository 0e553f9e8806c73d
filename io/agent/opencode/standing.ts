/**
 * Where the installed OpenCode stands against the versions its screen reader was scored on
 * (tests/fixtures/opencode-corpus/), said in one line with the fix: what `hand doctor` prints.
 */
import { compareVersions } from '../../screen/profiles/claude-versions.ts';
import { OPENCODE_CORPUS_VERSIONS } from '../../screen/profiles/opencode.ts';
import { FIX_OPENCODE, opencodeBinary, opencodeVersionOf } from './binary.ts';

export interface OpencodeStanding {
  name: 'opencode';
  ok: boolean;
  optional: true;
  detail: string;
  fix?: string;
}

/** Pure: the standing of `version` (of `binary`). */
export function opencodeStanding(binary: string | null, version: string | null): OpencodeStanding {
  const span = `${OPENCODE_CORPUS_VERSIONS[0]} … ${OPENCODE_CORPUS_VERSIONS.at(-1)}`;
  if (binary === null) return { name: 'opencode', ok: false, optional: true, detail: 'OpenCode not found (needed for --agent opencode)', fix: FIX_OPENCODE };
  if (version === null) return { name: 'opencode', ok: false, optional: true, detail: `${binary} did not say its version (opencode --version)`, fix: FIX_OPENCODE };
  const newest = OPENCODE_CORPUS_VERSIONS.at(-1)!;
  if (OPENCODE_CORPUS_VERSIONS.includes(version)) return { name: 'opencode', ok: true, optional: true, detail: `${version} (${binary}); its screens are in the reader's corpus (${span})` };
  if (compareVersions(version, newest) > 0) {
    return { name: 'opencode', ok: false, optional: true, detail: `${version} (${binary}) is newer than the reader's corpus (newest ${newest}): its screens may read "could not tell" more often`, fix: `npm run capture -- --agent opencode --version ${version}` };
  }
  return { name: 'opencode', ok: true, optional: true, detail: `${version} (${binary}); not in the reader's corpus (${span}), read with the same profile` };
}

export async function opencodeCheck(env: Record<string, string | undefined>): Promise<OpencodeStanding> {
  const bin = opencodeBinary(env);
  return opencodeStanding(bin, bin ? await opencodeVersionOf(bin) : null);
}
