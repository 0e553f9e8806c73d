/**
 * The version of the agent a dispatch will start, read once at dispatch (`claude --version`) so
 * the worker's screen is read with the profile of the nearest captured version. Could-not-tell
 * is null (the general reader then applies), never a guess.
 */
import { agentProfile } from './profiles/index.ts';

export { claudeVersionOf } from './claude/binary.ts';

/** The version of `agent` as dispatch would launch it, or null (mock agent, no binary, no answer). */
export async function agentVersion(agent: string, daemonEnv: Record<string, string | undefined> = process.env): Promise<string | null> {
  const profile = agentProfile(agent);
  const bin = profile.binary(daemonEnv);
  return bin === null ? null : profile.version(bin);
}
