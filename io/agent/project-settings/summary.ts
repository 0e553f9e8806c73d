/**
 * One line for a person about what an agent-settings file runs and grants:
 * `runs 2 hooks (SessionStart: "…", Stop: "…"); allows "Bash(npm:*)"`. Every value in it is
 * repository content, already quoted by the reader (grant-words.ts).
 */
import type { AgentSettingsFile, AgentSettingsGrant } from '../../../contract/methods/agent-settings.ts';

const SHOWN = 5;

const PHRASE: Record<AgentSettingsGrant['kind'], (n: number) => string> = {
  hook: (n) => `runs ${n} hook${n === 1 ? '' : 's'}`,
  'mcp-server': (n) => `starts or approves ${n} MCP server${n === 1 ? '' : 's'}`,
  command: (n) => `runs ${n} helper command${n === 1 ? '' : 's'}`,
  'allow-rule': () => 'allows',
  permission: () => 'grants',
  env: () => 'sets environment',
  plugin: () => 'brings plugins',
  setting: () => 'sets',
  restriction: () => 'restricts',
  file: () => 'is agent configuration kingshand does not read (the agent runs or obeys its content)',
};

const ORDER: AgentSettingsGrant['kind'][] = ['hook', 'mcp-server', 'command', 'allow-rule', 'permission', 'env', 'plugin', 'setting', 'restriction', 'file'];

export function summaryOf(f: Pick<AgentSettingsFile, 'state' | 'reason' | 'grants' | 'inert'>): string {
  if (f.state === 'unreadable') return `present but unreadable (${f.reason ?? 'no reason given'}): take it as able to run anything`;
  if (f.grants.length === 0) return `runs and grants nothing${f.inert.length ? ` (only ${f.inert.join(', ')})` : ''}`;
  const parts: string[] = [];
  for (const kind of ORDER) {
    const of = f.grants.filter((g) => g.kind === kind);
    if (of.length === 0) continue;
    if (kind === 'file') {
      parts.push(PHRASE.file(1));
      continue;
    }
    const list = of.slice(0, SHOWN).map((g) => g.says);
    if (of.length > SHOWN) list.push(`+${of.length - SHOWN} more`);
    const counted = kind === 'hook' || kind === 'mcp-server' || kind === 'command';
    parts.push(counted ? `${PHRASE[kind](of.length)} (${list.join(', ')})` : `${PHRASE[kind](of.length)} ${list.join(', ')}`);
  }
  return parts.join('; ');
}
