/**
 * What Gemini CLI 0.61.0 takes from a workspace it trusts (dispatch seeds that trust:
 * trusted-folders.ts). Evidence (its bundle): the workspace `.gemini/settings.json` is merged
 * whole in a trusted folder (mergeSettings: no key is refused from a workspace) — hooks,
 * mcpServers, tools.allowed, tools.discoveryCommand/callCommand, policyPaths…; loadEnvironment
 * loads `.gemini/.env`, else `.env`, from the workspace into its own process environment (which
 * its shell commands, hooks and MCP servers inherit); the Storage class reads workspace policies
 * (`.gemini/policies`), commands, skills and agents under `.gemini/`, and skills under `.agents/`.
 */
import type { ProjectSettingsSource } from '../project-settings/types.ts';
import { AGENTS_SKILLS } from '../project-settings/shared-sources.ts';

export const GEMINI_PROJECT_SETTINGS: readonly ProjectSettingsSource[] = [
  { path: '.gemini/settings.json', format: 'gemini-settings', reads: 'workspace settings: hooks, MCP servers, allowed tools, tool discovery commands, policy files' },
  { path: '.gemini/.env', format: 'dotenv', reads: 'variables loaded into its environment (trusted folder)' },
  { path: '.env', format: 'dotenv', reads: 'variables loaded into its environment when .gemini/.env is absent' },
  { path: '.gemini/', format: 'opaque', reads: 'workspace policies (allow rules), custom commands with shell injection, skills, agents, system prompt' },
  AGENTS_SKILLS,
];
