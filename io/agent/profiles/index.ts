/** The agent profiles: one file per agent CLI, one line here. */
import { AGENTS, type AgentName } from '../../../contract/vocabulary.ts';
import { badAgent } from '../../../contract/refusals.ts';
import { claudeProfile } from './claude.ts';
import { codexProfile } from './codex.ts';
import { mockProfile } from './mock.ts';
import { geminiProfile } from './gemini.ts';
import { opencodeProfile } from './opencode.ts';
import { qwenProfile } from './qwen.ts';
import type { AgentProfile } from './types.ts';

export type { AgentProfile, FarFiles, FarSeedContext, SeedContext, WorkerPlace } from './types.ts';

const PROFILES: Readonly<Record<AgentName, AgentProfile>> = {
  claude: claudeProfile,
  codex: codexProfile,
  mock: mockProfile,
  gemini: geminiProfile,
  opencode: opencodeProfile,
  qwen: qwenProfile,
};

/** The profile of `name`; an unknown name is the usage error that lists the agents. */
export function agentProfile(name: string): AgentProfile {
  if (!(AGENTS as readonly string[]).includes(name)) throw badAgent(name);
  return PROFILES[name as AgentName];
}

/** The screen profile a worker of `agent` at `version` is read with (`claude@2.1.332`: the nearest captured version). */
export function screenReaderOf(agent: string, version: string | null | undefined): string {
  const profile = agentProfile(agent).screenProfile;
  return version ? `${profile}@${version}` : profile;
}

export function agentProfiles(): AgentProfile[] {
  return AGENTS.map((name) => PROFILES[name]);
}
