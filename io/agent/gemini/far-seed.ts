/**
 * Gemini CLI's seed on another host (issue 28), the same files as here, each read back over ssh,
 * merged here by the same code, written there 0600 through a temp file renamed over it:
 *  - the deny policy in the worker's far directory (naming the far account's secrets and the far
 *    state directory);
 *  - the worktree's `.gemini/settings.json` (no auto-update or telemetry, the far brief directory
 *    included, the API-key auth choice, the policy), kept out of git status by the repository's
 *    local exclude there; no witness hooks (`hand hook` cannot reach this daemon from there);
 *  - folder trust for the worktree and the brief directory (their real paths there) in the far
 *    account's trustedFolders.json. Gemini CLI's own lock on that file is not taken there.
 */
import { join } from 'node:path';
import { RefusedError } from '../../../contract/errors.ts';
import { addLocalExcludes, localExcludeFile } from '../../git/local-exclude.ts';
import type { FarSeedContext } from '../profiles/types.ts';
import { DENY_POLICY_FILE, denyPolicyText } from './deny-policy.ts';
import { parseTrustEntries, trustedFoldersPathOf, trustFolders, trustWritten } from './trusted-folders.ts';
import { WORKSPACE_SETTINGS, keptKeys, mergeGeminiSettings, parseGeminiSettings, settingsTracked, theirKeys, trackedSettingsRefusal } from './workspace-settings.ts';

/** Runs where git runs (git-place.ts): the caller puts it on the worker's host. */
export async function seedGeminiFar(ctx: FarSeedContext): Promise<void> {
  const at = (path: string) => `${ctx.host}:${path}`;
  const trustFile = trustedFoldersPathOf(ctx.env);
  if (trustFile === null) throw new RefusedError('gemini-home-unknown', `the worker on ${ctx.host} would run with no home, so Gemini CLI's folder trust cannot be recorded; nothing was started. Check that the far account has a HOME (hand host check ${ctx.host}).`, { host: ctx.host });
  // Everything is read and merged before anything is written: a refusal leaves the host as it was.
  const keys = [...new Set([await ctx.files.realDir(ctx.worktree), await ctx.files.realDir(ctx.briefDir)])];
  const trustText = await ctx.files.read(trustFile);
  const entries = trustText === null ? {} : parseTrustEntries(trustText, at(trustFile));
  const count = Object.keys(entries).length;
  const added = trustFolders(entries, keys, at(trustFile));
  if (added.length > 0 && !(Object.keys(entries).length >= count && trustWritten(entries, keys, Object.keys(entries).length))) {
    throw new RefusedError('gemini-trust-verify-failed', `the merged ${at(trustFile)} did not read as expected; the original was kept unchanged.`, { path: trustFile });
  }
  const settingsFile = join(ctx.worktree, WORKSPACE_SETTINGS);
  if (await settingsTracked(ctx.worktree)) throw trackedSettingsRefusal(at(settingsFile));
  // The worktree is the far worker's: its settings file is never read through a link (issue 37).
  const settingsText = await ctx.files.readUntrusted(settingsFile);
  const settings = settingsText === null ? {} : parseGeminiSettings(settingsText, at(settingsFile));
  const before = theirKeys(settings);
  const policyFile = join(ctx.briefDir, DENY_POLICY_FILE);
  mergeGeminiSettings(settings, { briefDir: ctx.briefDir, env: ctx.env, policyFile });
  if (!keptKeys(settings, before)) throw new RefusedError('gemini-settings-verify-failed', `the merged ${at(settingsFile)} lost a key; the original was kept unchanged.`, { file: settingsFile });

  // In the worker's own directory there: never written through a link it planted.
  await ctx.files.writeOwn(policyFile, denyPolicyText({ agentHome: ctx.home, stateDir: ctx.stateDir, briefDir: ctx.briefDir, reportDir: ctx.reportDir }));
  await ctx.files.write(settingsFile, `${JSON.stringify(settings, null, 2)}\n`);
  await addLocalExcludes(await localExcludeFile(ctx.worktree), ['/.gemini/settings.json']);
  if (added.length === 0) return;
  await ctx.files.write(trustFile, `${JSON.stringify(entries, null, 2)}\n`);
}
