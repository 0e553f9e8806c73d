/**
 * What OpenCode (1.17.19, 1.18.33) takes from a project directory. Evidence (its binary's config
 * loader): `opencode.json` and `opencode.jsonc` found from the working directory up to the
 * worktree's root are merged over the person's config (unless OPENCODE_DISABLE_PROJECT_CONFIG) —
 * MCP servers (commands it starts), plugins (code it imports), permission rules, agents and
 * their prompts, custom commands, formatters and LSP servers (commands); every `.opencode/`
 * directory is a config directory too (its opencode.json, plugins, tools, agents, commands,
 * skills), into which it installs `@opencode-ai/plugin` with npm; skills are read from
 * `.claude/skills` and `.agents/skills`. A worker's posture rules are merged over all of it
 * (permission.ts); what the files run is not: read opaquely, so any change needs the person's word.
 */
import type { ProjectSettingsSource } from '../project-settings/types.ts';
import { AGENTS_SKILLS } from '../project-settings/shared-sources.ts';

export const OPENCODE_PROJECT_SETTINGS: readonly ProjectSettingsSource[] = [
  { path: 'opencode.json', format: 'opaque', reads: 'project config: MCP servers, plugins, permission rules, agents, commands, formatters and LSP servers it starts' },
  { path: 'opencode.jsonc', format: 'opaque', reads: 'project config (JSON with comments), same keys as opencode.json' },
  { path: '.opencode/', format: 'opaque', reads: 'a config directory: its opencode.json, plugins and tools (code it imports), agents, commands, skills; npm installs into it' },
  AGENTS_SKILLS,
  { path: '.claude/', format: 'opaque', reads: 'skills (.claude/skills), read unless OPENCODE_DISABLE_CLAUDE_CODE_SKILLS' },
];
