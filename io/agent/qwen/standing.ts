/**
 * Where the installed Qwen Code stands against the versions its screen reader was scored on
 * (tests/fixtures/qwen-corpus/), said in one line with the fix: what `hand doctor` prints.
 */
import { compareVersions } from '../../screen/profiles/claude-versions.ts';
import { QWEN_CORPUS_VERSIONS } from '../../screen/profiles/qwen.ts';
import { FIX_QWEN, qwenBinary, qwenVersionOf } from './binary.ts';

export interface QwenStanding {
  name: 'qwen';
  ok: boolean;
  optional: true;
  detail: string;
  fix?: string;
}

/** Pure: the standing of `version` (of `binary`). */
export function qwenStanding(binary: string | null, version: string | null): QwenStanding {
  const span = `${QWEN_CORPUS_VERSIONS[0]} … ${QWEN_CORPUS_VERSIONS.at(-1)}`;
  if (binary === null) return { name: 'qwen', ok: false, optional: true, detail: 'Qwen Code not found (needed for --agent qwen)', fix: FIX_QWEN };
  if (version === null) return { name: 'qwen', ok: false, optional: true, detail: `${binary} did not say its version (qwen --version)`, fix: FIX_QWEN };
  const newest = QWEN_CORPUS_VERSIONS.at(-1)!;
  if (QWEN_CORPUS_VERSIONS.includes(version)) return { name: 'qwen', ok: true, optional: true, detail: `${version} (${binary}); its screens are in the reader's corpus (${span})` };
  if (compareVersions(version, newest) > 0) {
    return { name: 'qwen', ok: false, optional: true, detail: `${version} (${binary}) is newer than the reader's corpus (newest ${newest}): its screens may read "could not tell" more often`, fix: `npm run capture -- --agent qwen --version ${version}` };
  }
  return { name: 'qwen', ok: true, optional: true, detail: `${version} (${binary}); not in the reader's corpus (${span}), read with the same profile` };
}

export async function qwenCheck(env: Record<string, string | undefined>): Promise<QwenStanding> {
  const bin = qwenBinary(env);
  return qwenStanding(bin, bin ? await qwenVersionOf(bin) : null);
}
