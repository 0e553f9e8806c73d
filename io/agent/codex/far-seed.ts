/**
 * Codex CLI's seed on another host (issue 28): the worktree's folder trust in the far account's
 * `$CODEX_HOME/config.toml` (default `~/.codex/config.toml`, as the far launch environment says),
 * by the same one-entry text edit as here (trust-toml.ts): read back over ssh, edited here, every
 * other byte kept, written there 0600 through a temp file renamed over it. A shape this cannot
 * edit safely is refused naming the host and the file, never rewritten.
 */
import { RefusedError } from '../../../contract/errors.ts';
import type { FarSeedContext } from '../profiles/types.ts';
import { codexConfigPath } from './trust-seed.ts';
import { isTrusted, tomlBasicString, trustEdit } from './trust-toml.ts';

export async function seedCodexFar(ctx: FarSeedContext): Promise<'seeded' | 'already' | 'created'> {
  const configPath = codexConfigPath(ctx.env);
  const where = `${ctx.host}:${configPath}`;
  const key = await ctx.files.realDir(ctx.worktree);
  const text = await ctx.files.read(configPath);
  const edit = trustEdit(text ?? '', key);
  if (edit.kind === 'already') return 'already';
  if (edit.kind === 'refused') {
    throw new RefusedError(
      'codex-config-shape',
      `${where} ${edit.why}, which kingshand will not rewrite; it was left untouched. Add [projects.${tomlBasicString(key)}] with trust_level = "trusted" there yourself, then dispatch again.`,
      { path: configPath, host: ctx.host, worktree: key },
    );
  }
  // Key-preserving: the original is still there, byte for byte, apart from the added lines.
  if (!isTrusted(edit.text, key) || edit.text.length < (text ?? '').length) {
    throw new RefusedError('codex-config-verify-failed', `the edited ${where} did not read as expected; the original was kept unchanged.`, { path: configPath, host: ctx.host });
  }
  await ctx.files.write(configPath, edit.text);
  return text === null ? 'created' : 'seeded';
}
