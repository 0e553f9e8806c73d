/**
 * What Claude Code 2.1.332 takes from a project directory it trusts (dispatch seeds that trust:
 * trust-seed.ts), that can run a command or grant a permission. Evidence: its own settings
 * schema (the keys of `.claude/settings.json`, the list it treats as commands — apiKeyHelper,
 * statusLine, otelHeadersHelper, … —, hooks, env, permissions, enableAllProjectMcpServers /
 * enabledMcpjsonServers approving `.mcp.json`); skills, commands and agents under `.claude/` carry
 * hooks, MCP servers, allowed tools and inline shell in their front matter. Recorded in
 * docs/2026-12-06-a-repositorys-agent-settings-are-the-persons-to-trust.md.
 */
import type { ProjectSettingsSource } from '../project-settings/types.ts';

export const CLAUDE_PROJECT_SETTINGS: readonly ProjectSettingsSource[] = [
  { path: '.claude/settings.json', format: 'claude-settings', reads: 'project settings: hooks, permission rules, env, helper commands, MCP approvals, plugins' },
  // kingshand writes its own into each worktree (untracked, excluded); a committed one is the repository's.
  { path: '.claude/settings.local.json', format: 'claude-settings', reads: 'local project settings, same keys (a committed one is read by every checkout)' },
  { path: '.mcp.json', format: 'mcp-json', reads: 'project MCP servers: commands it starts once approved (or approved by the settings)' },
  { path: '.claude/', format: 'opaque', reads: 'skills, slash commands, agents, output styles, hook scripts: front matter with hooks, MCP servers, allowed tools; inline shell' },
];
