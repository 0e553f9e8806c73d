/**
 * Claude Code's seed on another host (issue 28): the posture's settings.local.json, built by the
 * same code as here and written into the far worktree, and its folder trust merged into the far
 * account's `.claude.json` (read back, merged here, written there 0600). Claude Code's own lock on
 * that file is not taken there (a lock is a process of ours on that machine).
 */
import { join } from 'node:path';
import { RefusedError } from '../../../contract/errors.ts';
import type { FarSeedContext } from '../profiles/types.ts';
import { claudeConfigDirOf } from './claude-json-plan.ts';
import { postureSettings } from './permissions.ts';

/** Claude Code's folder trust for `key`, merged into the far account's config text (null: nothing to write). */
export function trustedConfig(text: string | null, key: string, where: string): string | null {
  let config: unknown;
  try {
    config = text === null ? { hasCompletedOnboarding: true } : JSON.parse(text);
  } catch {
    config = null;
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw new RefusedError('claude-config-malformed', `${where} does not hold a JSON object; it was left untouched. Fix or move it aside, then dispatch again.`, { path: where });
  const c = config as { projects?: Record<string, { hasTrustDialogAccepted?: boolean }> };
  if (c.projects?.[key]?.hasTrustDialogAccepted === true) return null;
  c.projects = { ...c.projects, [key]: { ...c.projects?.[key], hasTrustDialogAccepted: true } };
  return `${JSON.stringify(c, null, 2)}\n`;
}

export async function seedClaudeFar(ctx: FarSeedContext): Promise<void> {
  // The same posture as here: the brief directory there granted (its out/ alone written), the deny list naming the far
  // account's secrets and the far state directory. No witness hooks there.
  const settings = postureSettings(ctx.posture, {
    worktree: ctx.worktree,
    briefDir: ctx.briefDir,
    reportDir: ctx.reportDir,
    agentHome: ctx.home,
    stateDir: ctx.stateDir,
    gitCommonDir: ctx.gitCommonDir,
  });
  // The config is read and merged first: a refusal leaves the host as it was.
  const configPath = join(claudeConfigDirOf(ctx.env) ?? ctx.home, '.claude.json');
  const key = await ctx.files.realDir(ctx.worktree);
  const merged = trustedConfig(await ctx.files.read(configPath), key, `${ctx.host}:${configPath}`);
  await ctx.files.write(`${ctx.worktree}/.claude/settings.local.json`, `${JSON.stringify(settings, null, 2)}\n`);
  if (merged !== null) await ctx.files.write(configPath, merged);
}
