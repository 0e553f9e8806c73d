/**
 * The Hand's Claude Code settings and MCP registration (workflow §8.3, verified against Claude
 * Code 2.1.332, see docs/2026-12-01-hand-permission-posture.md):
 * - `enabledMcpjsonServers: ["hand"]` in the project settings loads the server from .mcp.json
 *   without the "New MCP server found" question;
 * - `defaultMode: bypassPermissions` turns prompts off where Claude Code allows it, and explicit
 *   allow rules cover every hand call where it does not (as root it refuses bypass and falls back
 *   to manual mode): no hand call ever raises a permission prompt;
 * - deny rules win over both: secrets are never read and instructions.md is never written.
 * Commands use this installation's node and bin/hand.js by absolute path, so a clone works
 * without `hand` on PATH.
 */
import { HAND_CALLER_ENV } from '../../contract/hand-caller.ts';
import { existsSync, readFileSync } from 'node:fs';

export interface KitCommand {
  node: string;
  handBin: string;
  /** --home baked in when init was given one; otherwise $HAND_HOME or the default at run time. */
  home: string | null;
  workspace: string;
}

/** POSIX shell quoting: safe words bare, anything else in single quotes. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

export function shellCommand(argv: string[]): string {
  return argv.map(shellQuote).join(' ');
}

function handArgv(c: Omit<KitCommand, 'workspace'>): string[] {
  return [c.node, c.handBin, ...(c.home ? ['--home', c.home] : [])];
}

/** The person's own settings, as the words of their commands (contract/methods.ts PERSON_ONLY_METHODS). */
export const PERSON_ONLY_COMMANDS = ['notify add', 'notify remove', 'usage source', 'host add', 'host trust', 'host remove', 'project host', 'daemon stop',
  // The person's note on a review (issue 40), spaced so `hand annotations` and a brief named annotate-… stay the Hand's.
  ' annotate '] as const;

/** Where people keep credentials that no Hand needs to read. */
export const SECRET_READS = [
  'Read(~/.ssh/**)',
  'Read(~/.aws/credentials)',
  'Read(~/.aws/config)',
  'Read(~/.config/gcloud/**)',
  'Read(~/.azure/**)',
  'Read(~/.kube/config)',
  'Read(~/.docker/config.json)',
  'Read(~/.netrc)',
  'Read(~/.npmrc)',
  'Read(~/.config/gh/hosts.yml)',
];

export function handSettings(c: KitCommand & { stateDir: string }): Record<string, unknown> {
  const hand = shellCommand(handArgv(c));
  const abs = (p: string) => `/${p}`; // Claude Code writes an absolute path in a rule as //path
  return {
    permissions: {
      defaultMode: 'bypassPermissions',
      allow: [
        'mcp__hand',
        `Bash(${hand}:*)`,
        'Read(/**)',
        // Edit rules cover every file-writing tool (2.1.332 warns that a Write rule never matches).
        'Edit(/memory/**)',
        'Edit(/data/**)',
      ],
      deny: [
        ...SECRET_READS,
        // The state directory: the fleet database and anything kept there as a secret.
        `Read(${abs(c.stateDir)}/fleet.db*)`,
        `Read(${abs(c.stateDir)}/secrets/**)`,
        `Read(${abs(c.stateDir)}/credentials/**)`,
        'Edit(/instructions.md)',
        'Edit(/.claude/**)',
        'Edit(/.mcp.json)',
        'Edit(/CLAUDE.md)',
        // The word on a repository's agent settings is the person's (issue 37 item 3): the MCP
        // tools cannot give it, and the Hand's shell may not either.
        'Bash(*--accept-agent-settings*)',
        // The person's own settings (issue 38 item 10): the daemon refuses them to the Hand too
        // (HAND_CALLER below marks every request from this session's shell and MCP server).
        ...PERSON_ONLY_COMMANDS.map((words) => `Bash(*${words}*)`),
      ],
      additionalDirectories: [],
    },
    env: {
      // Every command this session runs (its Bash, its hooks, its MCP server) says it is the Hand's.
      [HAND_CALLER_ENV]: 'hand',
      // The hand tools are offered to the model from the first turn: Claude Code 2.1.332 otherwise
      // defers every MCP tool behind ToolSearch, and a model that has only read CLAUDE.md needs a
      // search round before its first call (issue 38 item 12). 'false' is its "standard" mode.
      ENABLE_TOOL_SEARCH: 'false',
    },
    enabledMcpjsonServers: ['hand'],
    hooks: {
      SessionStart: [
        {
          hooks: [{ type: 'command', command: shellCommand([...handArgv(c), 'digest', '--hook', '--workspace', c.workspace]), timeout: 60 }],
        },
      ],
    },
  };
}

/** .mcp.json with the `hand` server set and any other server the person registered kept. */
export function mcpRegistration(existingPath: string, c: KitCommand): Record<string, unknown> {
  let servers: Record<string, unknown> = {};
  if (existsSync(existingPath)) {
    try {
      const old = JSON.parse(readFileSync(existingPath, 'utf8')) as { mcpServers?: Record<string, unknown> };
      if (old.mcpServers && typeof old.mcpServers === 'object') servers = { ...old.mcpServers };
    } catch {
      // unreadable: rewritten whole (it was ours to keep well-formed)
    }
  }
  servers.hand = { type: 'stdio', command: c.node, args: [...handArgv(c).slice(1), 'mcp', '--workspace', c.workspace], env: {} };
  return { mcpServers: servers };
}
