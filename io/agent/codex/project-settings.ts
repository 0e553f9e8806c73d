/**
 * What Codex CLI 0.169.0 takes from a project it trusts (dispatch seeds that trust in the
 * person's config.toml: trust-seed.ts). Evidence (its config loader, codex-rs/config, and the
 * strings of the 0.169.0 binary): `.codex/config.toml` is a config layer ("project-local config,
 * hooks, and exec policies" are what trust gates), less a deny list of keys it ignores from a
 * project (openai_base_url, chatgpt_base_url, model_provider(s), notify, profile(s), otel, …) —
 * mcp_servers, hooks, sandbox and approval settings stay; hooks also come from
 * `.codex/hooks.json`; `.codex/rules/*.rules` are exec-policy rules (allow a command without
 * asking); skills under `.codex/` and `.agents/skills`. In a linked worktree it reads the hooks
 * of the main checkout's `.codex/`, which a landing changes too. Project hooks run only once
 * the person has trusted each one (its hash kept in config.toml), unless
 * `--dangerously-bypass-hook-trust`, which kingshand never passes.
 */
import type { ProjectSettingsSource } from '../project-settings/types.ts';
import { AGENTS_SKILLS } from '../project-settings/shared-sources.ts';

export const CODEX_PROJECT_SETTINGS: readonly ProjectSettingsSource[] = [
  { path: '.codex/config.toml', format: 'codex-config', reads: 'project config layer: MCP servers, hooks, sandbox and approval settings' },
  { path: '.codex/hooks.json', format: 'hooks-json', reads: 'project hooks' },
  { path: '.codex/', format: 'opaque', reads: 'exec-policy rules (.codex/rules/*.rules allow commands), skills, agents' },
  AGENTS_SKILLS,
];
