/**
 * The agent CLIs as a far host is asked about them (issue 28), from their profiles: `hand host
 * check` lists every CLI that can tell its version there; dispatch asks about the one it starts
 * and refuses, naming the host, the agent and the fix, when the far host lacks it.
 */
import { RefusedError } from '../../contract/errors.ts';
import { agentProfile, agentProfiles, type AgentProfile } from '../../io/agent/profiles/index.ts';
import { probeAgent, type FarAgentProbe } from '../../io/ssh/host-check.ts';
import type { FarHost } from './far-hosts.ts';

export function farAgentProbe(p: AgentProfile): FarAgentProbe {
  return {
    name: p.name,
    label: p.label,
    program: p.farLaunchArgv('ask')[0]!,
    versionArgv: (stateDir) => p.farVersion?.argv(stateDir) ?? null,
    parse: (text) => p.farVersion?.parse(text) ?? null,
    fix: p.install.replace(/^npm install --save-exact /, 'npm install -g '),
  };
}

/** The CLIs a check lists: those that tell a version there (the mock agent is for tests). */
export function farAgentProbes(): FarAgentProbe[] {
  return agentProfiles().filter((p) => p.farVersion).map(farAgentProbe);
}

/** The version of `agent` on `far` (null: it did not tell), or the refusal when it is not there or ssh could not tell. */
export async function farAgentVersion(far: FarHost, agent: string): Promise<string | null> {
  const probe = farAgentProbe(agentProfile(agent));
  const found = await probeAgent(far.target, far.home, far.stateDir, probe);
  if (found.answer === 'yes') return found.version ?? null;
  if (found.answer === 'no') {
    throw new RefusedError(
      'agent-not-on-host',
      `host ${far.name} has no ${probe.label} (${found.detail}); nothing was created. Install it there: ${found.fix}; or dispatch with another --agent (hand host check ${far.name} lists the agents it has) or on another --host.`,
      { host: far.name, agent, program: probe.program },
    );
  }
  throw new RefusedError('host-unreachable', `could not tell whether host ${far.name} has ${probe.label}: ${found.detail}; nothing was created. Dispatch again once hand host check ${far.name} answers.`, { host: far.name, agent });
}
