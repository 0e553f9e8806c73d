/**
 * Where the installed Gemini CLI stands against the versions its screen reader was scored on
 * (tests/fixtures/gemini-corpus/), said in one line with the fix: what `hand doctor` prints.
 */
import { compareVersions } from '../../screen/profiles/claude-versions.ts';
import { GEMINI_CORPUS_VERSIONS } from '../../screen/profiles/gemini.ts';
import { FIX_GEMINI, geminiBinary, geminiVersionOf } from './binary.ts';

export interface GeminiStanding {
  name: 'gemini';
  ok: boolean;
  optional: true;
  detail: string;
  fix?: string;
}

/** Pure: the standing of `version` (of `binary`). */
export function geminiStanding(binary: string | null, version: string | null): GeminiStanding {
  const span = `${GEMINI_CORPUS_VERSIONS[0]} … ${GEMINI_CORPUS_VERSIONS.at(-1)}`;
  if (binary === null) return { name: 'gemini', ok: false, optional: true, detail: 'Gemini CLI not found (needed for --agent gemini)', fix: FIX_GEMINI };
  if (version === null) return { name: 'gemini', ok: false, optional: true, detail: `${binary} did not say its version (gemini --version)`, fix: FIX_GEMINI };
  const newest = GEMINI_CORPUS_VERSIONS.at(-1)!;
  if (GEMINI_CORPUS_VERSIONS.includes(version)) return { name: 'gemini', ok: true, optional: true, detail: `${version} (${binary}); its screens are in the reader's corpus (${span})` };
  if (compareVersions(version, newest) > 0) {
    return { name: 'gemini', ok: false, optional: true, detail: `${version} (${binary}) is newer than the reader's corpus (newest ${newest}): its screens may read "could not tell" more often`, fix: `npm run capture -- --agent gemini --version ${version}` };
  }
  return { name: 'gemini', ok: true, optional: true, detail: `${version} (${binary}); not in the reader's corpus (${span}), read with the same profile` };
}

export async function geminiCheck(env: Record<string, string | undefined>): Promise<GeminiStanding> {
  const bin = geminiBinary(env);
  return geminiStanding(bin, bin ? await geminiVersionOf(bin) : null);
}
