/**
 * Project sources more than one agent reads alike, named once: the cross-agent `.agents/skills`
 * folder (Codex CLI, Gemini CLI and OpenCode each read skills there).
 */
import type { ProjectSettingsSource } from './types.ts';

export const AGENTS_SKILLS: ProjectSettingsSource = { path: '.agents/', format: 'opaque', reads: 'skills (.agents/skills)' };
