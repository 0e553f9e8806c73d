/**
 * Folder trust for a Codex worker, written before launch so it never stops on Codex's "Trust
 * this folder?" screen. The file is the person's own `$CODEX_HOME/config.toml` (default
 * `~/.codex/config.toml`): their provider, model and login settings live there and a worker has
 * to run with them, so kingshand does not give workers a CODEX_HOME of their own. Hence:
 *  - only the worktree's trust entry is added or flipped (trust-toml.ts); every other byte stays;
 *  - a shape that cannot be edited safely is refused with the fix, never rewritten;
 *  - the write is atomic (temp file in the same directory, re-read and checked, renamed over);
 *  - a symlinked config (dotfile managers) is written through, the link kept.
 * No file yet: the file is created holding only the trust entry (Codex starts without one).
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { trustKey } from '../claude/trust-seed.ts';
import { dirname, join } from 'node:path';
import { homedir } from 'node:os';
import { RefusedError } from '../../../contract/errors.ts';
import { writeTextAtomically } from '../../fs/atomic-text.ts';
import { isTrusted, trustEdit } from './trust-toml.ts';

export type CodexTrustResult = 'seeded' | 'already' | 'created';

/** Codex's home as `env` (the environment the worker starts with) says: $CODEX_HOME or ~/.codex. */
export function codexHome(env: Record<string, string | undefined>): string {
  const set = env.CODEX_HOME;
  if (set !== undefined && set !== '') return set;
  return join(env.HOME && env.HOME !== '' ? env.HOME : homedir(), '.codex');
}

export function codexConfigPath(env: Record<string, string | undefined>): string {
  return join(codexHome(env), 'config.toml');
}

/** The key Codex looks up: the worktree's real path without a trailing slash, Claude Code's key too. */
export const codexTrustKey = trustKey;

export function seedCodexTrust(args: { configPath: string; worktree: string }): CodexTrustResult {
  const key = codexTrustKey(args.worktree);
  const exists = existsSync(args.configPath);
  if (!exists) mkdirSync(dirname(args.configPath), { recursive: true, mode: 0o700 });
  const target = exists ? realpathSync(args.configPath) : args.configPath;
  let text = '';
  if (exists) {
    try {
      text = readFileSync(target, 'utf8');
    } catch (err) {
      throw new RefusedError('codex-config-unreadable', `${args.configPath} cannot be read (${(err as Error).message}); it was left untouched. Fix its permissions, then dispatch again.`, { path: args.configPath });
    }
  }
  const edit = trustEdit(text, key);
  if (edit.kind === 'already') return 'already';
  if (edit.kind === 'refused') {
    throw new RefusedError(
      'codex-config-shape',
      `${args.configPath} ${edit.why}, which kingshand will not rewrite; it was left untouched. Add [projects.${JSON.stringify(key)}] with trust_level = "trusted" yourself, then dispatch again.`,
      { path: args.configPath, worktree: key },
    );
  }
  writeTextAtomically(target, edit.text, {
    mode: exists ? statSync(target).mode & 0o7777 : 0o600,
    verify(written) {
      // Key-preserving: the original is still there, byte for byte, apart from the added lines.
      if (!isTrusted(written, key) || written.length < text.length) {
        throw new RefusedError('codex-config-verify-failed', `the rewritten ${args.configPath} did not read back as expected; the original was kept unchanged.`);
      }
    },
  });
  return exists ? 'seeded' : 'created';
}
