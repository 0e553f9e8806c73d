/**
 * What Qwen Code (0.15.6, 0.15.10) takes from a project directory. Evidence (its bundle): the
 * workspace `.qwen/settings.json` is merged under the system scope and over the person's — hooks
 * (commands it runs), MCP servers (commands it starts), permission allow rules (outranked by a
 * worker's ask and deny rules: posture.ts), tool discovery and call commands, env; it loads
 * `.qwen/.env`, else `.env`, into its own environment; `.qwen/` holds commands, agents and skills;
 * QWEN.md and AGENTS.md are instructions (read, not run).
 */
import type { ProjectSettingsSource } from '../project-settings/types.ts';

export const QWEN_PROJECT_SETTINGS: readonly ProjectSettingsSource[] = [
  { path: '.qwen/settings.json', format: 'opaque', reads: 'workspace settings: hooks, MCP servers, permission rules, tool discovery and call commands' },
  { path: '.qwen/.env', format: 'dotenv', reads: 'variables loaded into its environment' },
  { path: '.env', format: 'dotenv', reads: 'variables loaded into its environment when .qwen/.env is absent' },
  { path: '.qwen/', format: 'opaque', reads: 'custom commands with shell injection, agents, skills' },
];
