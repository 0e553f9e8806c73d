/**
 * What an agent CLI reads from a project directory that can run something or grant something
 * (issue 37 item 3): each agent profile lists its sources (io/agent/<agent>/project-settings.ts),
 * and the readers here turn a file's bytes, read from a commit's tree, into what it runs or
 * grants. The shown shapes are the contract's (contract/methods/agent-settings.ts).
 */
import type { AgentSettingsGrant } from '../../../contract/methods/agent-settings.ts';

/**
 * How a file's content is read:
 * - claude-settings: Claude Code's `.claude/settings.json` (hooks, permissions, env, commands, MCP approvals)
 * - mcp-json: a `.mcp.json` (its mcpServers)
 * - hooks-json: a `{"hooks": …}` file (Codex CLI's `.codex/hooks.json`)
 * - codex-config: Codex CLI's `.codex/config.toml`
 * - gemini-settings: Gemini CLI's `.gemini/settings.json`
 * - dotenv: KEY=value lines loaded into the agent's environment
 * - opaque: not read: any change to it needs the person's word (skills, agents, commands, rules, hook scripts)
 */
export type SettingsFormat = 'claude-settings' | 'mcp-json' | 'hooks-json' | 'codex-config' | 'gemini-settings' | 'dotenv' | 'opaque';

export interface ProjectSettingsSource {
  /** From the repository's root, '/'-separated; a directory ends with '/' (every file under it). */
  path: string;
  format: SettingsFormat;
  /** What the agent does with it, with the evidence (said in the record, docs/2026-12-06-…). */
  reads: string;
}

/** A grant as a reader finds it: `canon` is the full value (compared, never shown: it may hold a secret). */
export interface ReadGrant extends AgentSettingsGrant {
  canon: string;
}

/** What a reader makes of a file's text, or why it could not. */
export type ReaderResult = { ok: true; grants: ReadGrant[]; inert: string[] } | { ok: false; reason: string };

export type SettingsReader = (text: string) => ReaderResult;
