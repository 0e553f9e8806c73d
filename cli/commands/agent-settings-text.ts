/**
 * A repository's own agent settings in words, for `hand annex`, `hand land` and `hand landings`
 * (issue 37 item 3). Every value is repository content a worker may have written, already quoted
 * by the reader; the lines say so, and say how the person gives their word.
 */
import type { LandingAgentSettings, RepoAgentSettings } from '../../contract/methods/agent-settings.ts';

const agentsOf = (agents: string[]) => (agents.length ? agents.join(', ') : 'an agent');

/** What the base branch carries, at annex. */
export function repoSettingsLines(s: RepoAgentSettings | undefined): string[] {
  if (!s) return [];
  if (s.couldNotTell) return [`  agent settings: could not tell (${s.couldNotTell})`];
  const at = `${s.ref} ${s.sha?.slice(0, 10) ?? ''}`.trim();
  if (s.files.length === 0) return [`  agent settings on ${at}: none an agent reads from the project`];
  return [
    `  this repository's own agent settings on ${at} (repository content, quoted; every worker of this project runs them as you):`,
    ...s.files.map((f) => `    ${f.path} (${agentsOf(f.agents)}): ${f.summary}`),
    ...(s.more ? [`    … and ${s.more} more file(s) (hand annex --json lists the first ones)`] : []),
    '  a landing that changes what they run or grant needs your explicit word (--accept-agent-settings).',
  ];
}

/** What a landing changes, at `hand land` and `hand landings`. */
export function landingSettingsLines(id: string, s: LandingAgentSettings | undefined, step: 'approve' | 'land' = 'approve'): string[] {
  if (!s || s.changes.length === 0) return [];
  const head = s.needsWord
    ? `  agent settings change (repository content, quoted; needs your explicit word: hand ${step} ${id} --accept-agent-settings):`
    : '  agent settings change (repository content, quoted; nothing it runs or grants changed):';
  return [head, ...s.changes.map((c) => `    ${c.needsWord ? '!' : ' '} ${c.describe}`), ...(s.more ? [`    … and ${s.more} more changed file(s), covered by the same word`] : [])];
}
