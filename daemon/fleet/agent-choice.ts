/**
 * Which agent a dispatch runs, and why (issue 27): the dispatch's own --agent wins; without one,
 * the project's default agent (hand annex/project set --agent); without that, claude, as every
 * dispatch did before projects had a default. The answer carries the reason, so a person who
 * typed no --agent sees that the project chose (a Codex worker is never a surprise).
 */
import type { AgentName } from '../../contract/vocabulary.ts';
import type { AgentChosenBy, ProjectRecord } from '../../contract/methods/fleet.ts';

export const BUILT_IN_AGENT: AgentName = 'claude';

export function chooseAgent(flag: AgentName | undefined, project: Pick<ProjectRecord, 'defaultAgent'>): { agent: AgentName; by: AgentChosenBy } {
  if (flag) return { agent: flag, by: 'flag' };
  if (project.defaultAgent) return { agent: project.defaultAgent, by: 'project-default' };
  return { agent: BUILT_IN_AGENT, by: 'built-in-default' };
}
