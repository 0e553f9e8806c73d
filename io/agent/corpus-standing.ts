/**
 * Where an installed agent CLI stands against the versions its screen reader was scored on (its
 * corpus in tests/fixtures/<agent>-corpus/), said in one line with the fix: what `hand doctor`
 * prints for Gemini CLI, OpenCode and Qwen Code. The rule is one; each agent gives its profile
 * (name, label, install command, binary and version) and its reader's corpus versions. Claude
 * Code's standing, with its nearest-version reading, is setup-facts.ts's; Codex CLI's is doctor's.
 */
import { compareVersions } from '../screen/profiles/claude-versions.ts';
import { GEMINI_CORPUS_VERSIONS } from '../screen/profiles/gemini.ts';
import { OPENCODE_CORPUS_VERSIONS } from '../screen/profiles/opencode.ts';
import { QWEN_CORPUS_VERSIONS } from '../screen/profiles/qwen.ts';
import { geminiProfile } from './profiles/gemini.ts';
import { opencodeProfile } from './profiles/opencode.ts';
import { qwenProfile } from './profiles/qwen.ts';
import type { AgentProfile } from './profiles/types.ts';

/** The agents read this way, each its profile beside the versions its reader was scored on (oldest first). */
const CORPUS_AGENTS = {
  gemini: { profile: geminiProfile, corpus: GEMINI_CORPUS_VERSIONS },
  opencode: { profile: opencodeProfile, corpus: OPENCODE_CORPUS_VERSIONS },
  qwen: { profile: qwenProfile, corpus: QWEN_CORPUS_VERSIONS },
} as const satisfies Record<string, { profile: AgentProfile; corpus: readonly string[] }>;

export type CorpusAgent = keyof typeof CORPUS_AGENTS;
export const CORPUS_AGENT_NAMES = Object.keys(CORPUS_AGENTS) as CorpusAgent[];

export interface CorpusStanding {
  name: CorpusAgent;
  ok: boolean;
  optional: true;
  detail: string;
  fix?: string;
}

/** Pure: the standing of `agent`'s `version` (of `binary`). */
export function corpusStanding(name: CorpusAgent, binary: string | null, version: string | null): CorpusStanding {
  const { profile: { label, install: fix }, corpus } = CORPUS_AGENTS[name];
  const span = `${corpus[0]} … ${corpus.at(-1)}`;
  if (binary === null) return { name, ok: false, optional: true, detail: `${label} not found (needed for --agent ${name})`, fix };
  if (version === null) return { name, ok: false, optional: true, detail: `${binary} did not say its version (${name} --version)`, fix };
  const newest = corpus.at(-1)!;
  if (corpus.includes(version)) return { name, ok: true, optional: true, detail: `${version} (${binary}); its screens are in the reader's corpus (${span})` };
  if (compareVersions(version, newest) > 0) {
    return { name, ok: false, optional: true, detail: `${version} (${binary}) is newer than the reader's corpus (newest ${newest}): its screens may read "could not tell" more often`, fix: `npm run capture -- --agent ${name} --version ${version}` };
  }
  return { name, ok: true, optional: true, detail: `${version} (${binary}); not in the reader's corpus (${span}), read with the same profile` };
}

/** The standing of the binary a dispatch of `agent` would start, as `env` (the caller's environment) finds it. */
export async function corpusCheck(name: CorpusAgent, env: Record<string, string | undefined>): Promise<CorpusStanding> {
  const { profile } = CORPUS_AGENTS[name];
  const bin = profile.binary(env);
  return corpusStanding(name, bin, bin ? await profile.version(bin) : null);
}
