/**
 * Qwen Code's seed on another host (issue 28): the same two files as here (worker-settings.ts), in
 * the worker's brief directory there, the machine's system settings and the person's trust read
 * back over ssh and kept under ours. No witness hooks there (`hand hook` cannot reach this daemon).
 */
import { join } from 'node:path';
import type { FarSeedContext } from '../profiles/types.ts';
import { parseTrustEntries, trustFolders } from '../gemini/trusted-folders.ts';
import { machineSettingsPath, personsQwenHome, qwenWorkerSettings, QWEN_SYSTEM_SETTINGS_FILE, QWEN_TRUST_FILE } from './worker-settings.ts';
import { RefusedError } from '../../../contract/errors.ts';

export async function seedQwenFar(ctx: FarSeedContext): Promise<void> {
  const at = (path: string) => `${ctx.host}:${path}`;
  const machine = machineSettingsPath(ctx.env);
  const machineText = await ctx.files.read(machine);
  let base: Record<string, unknown> = {};
  if (machineText !== null) {
    try {
      base = JSON.parse(machineText) as Record<string, unknown>;
    } catch {
      throw new RefusedError('qwen-settings-malformed', `${at(machine)} is not plain JSON; a Qwen Code worker's settings are merged over it, so nothing was started.`, { file: machine });
    }
  }
  const settings = qwenWorkerSettings(base, { posture: ctx.posture, worktree: ctx.worktree, briefDir: ctx.briefDir, reportDir: ctx.reportDir, home: ctx.home, stateDir: ctx.stateDir });
  const qwenHome = personsQwenHome({ ...ctx.env, HOME: ctx.home });
  const theirs = ctx.env.QWEN_CODE_TRUSTED_FOLDERS_PATH || (qwenHome ? join(qwenHome, 'trustedFolders.json') : null);
  const trustText = theirs ? await ctx.files.read(theirs) : null;
  const entries = trustText === null ? {} : parseTrustEntries(trustText, at(theirs!));
  trustFolders(entries, [...new Set([await ctx.files.realDir(ctx.worktree), await ctx.files.realDir(ctx.briefDir)])], at(theirs ?? QWEN_TRUST_FILE));
  await ctx.files.writeOwn(join(ctx.briefDir, QWEN_SYSTEM_SETTINGS_FILE), `${JSON.stringify(settings, null, 2)}\n`);
  await ctx.files.writeOwn(join(ctx.briefDir, QWEN_TRUST_FILE), `${JSON.stringify(entries, null, 2)}\n`);
}
