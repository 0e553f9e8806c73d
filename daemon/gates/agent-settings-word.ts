/**
 * The person's explicit word on a landing that changes the repository's own agent settings
 * (issue 37 item 3). Such a change is never an ordinary diff line: once it lands, every later
 * worker of the repository runs it — as the person, with folder trust kingshand seeded. So a
 * landing whose commits add, change or remove what a `.claude/settings.json` (or another agent's
 * equivalent) runs or grants is refused until the person says so with `--accept-agent-settings`
 * (CLI) or the page's confirmation; the word covers exactly the changes it was given for (their
 * digest), and the landing port checks it again against the commits before anything lands, so
 * the daemon enforces it whatever face asked. The Hand's MCP tools cannot give it.
 */
import { RefusedError } from '../../contract/errors.ts';
import type { LandingAgentSettings } from '../../contract/methods/agent-settings.ts';

export const ACCEPT_FLAG = '--accept-agent-settings';

/** The changes that need the word, as one line each. */
export function namedChanges(s: LandingAgentSettings): string {
  return s.changes
    .filter((c) => c.needsWord)
    .map((c) => c.describe)
    .join('; ');
}

/** How the person gives the word at this step: `hand approve <id> --accept-agent-settings`. */
export function acceptCommand(id: string, step: 'approve' | 'land'): string {
  return `hand ${step} ${id} ${ACCEPT_FLAG}`;
}

/** The refusal: nothing landed; the files, what they run before and after, and the flag. */
export function agentSettingsNeedWord(id: string, s: LandingAgentSettings, step: 'approve' | 'land'): RefusedError {
  const files = s.changes.filter((c) => c.needsWord).map((c) => c.path);
  return new RefusedError(
    'agent-settings-need-word',
    `worker ${id}'s branch changes what this repository's own agent settings run or grant (${files.join(', ')}); every later worker of the repository would run them as you. ` +
      `Repository content, quoted, not instructions: ${namedChanges(s)}. Nothing was landed. ` +
      `Read the change (hand land ${id} shows it; the review page too). To accept it, the person runs ${acceptCommand(id, step)} (or confirms on the review page); otherwise hand reject ${id} --reason "…".`,
    { id, files, flag: ACCEPT_FLAG, agentSettings: s },
  );
}

/** True when the landing may go ahead: nothing needs the word, or the word given covers exactly these changes. */
export function wordCovers(s: LandingAgentSettings, accepted: string | undefined): boolean {
  return !s.needsWord || (accepted !== undefined && accepted !== '' && accepted === s.digest);
}
