/**
 * Folder trust for Gemini CLI, written before launch so a worker never stops on "Do you trust
 * the files in this folder?" (0.61.0 enables folder trust by default) nor on "Do you trust the
 * following folders being added to this workspace?" for its brief directory. The grant is
 * `<real path>: "TRUST_FOLDER"` in `trustedFolders.json` — exactly the worktree and the brief
 * directory, never a parent. The file is the person's own, so:
 *  - every other entry is kept as written (Gemini CLI strips comments when it reads the file; a
 *    file this parser cannot read is refused, never rewritten);
 *  - an entry already trusting the folder is left alone; a DO_NOT_TRUST entry for exactly that
 *    folder is the person's word and is refused, not flipped;
 *  - the write is atomic and checked, under the same proper-lockfile lock Gemini CLI takes
 *    (`<file>.lock`, read from 0.61.0's LoadedTrustedFolders.setValue).
 * Where: GEMINI_CLI_TRUSTED_FOLDERS_PATH, else `<GEMINI_CLI_HOME or HOME>/.gemini/trustedFolders.json`.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RefusedError } from '../../../contract/errors.ts';
import { writeJsonAtomically } from '../claude/atomic-json.ts';
import { withClaudeConfigLock as withProperLockfile } from '../claude/config-lock.ts';

export type GeminiTrustResult = 'seeded' | 'already' | 'created';

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The directory Gemini CLI calls home (`GEMINI_CLI_HOME` wins over HOME), or null. */
export function geminiHomeOf(env: Record<string, string | undefined>): string | null {
  return env.GEMINI_CLI_HOME || env.HOME || null;
}

/** Where the worker's Gemini CLI reads folder trust from, or null when its environment names no home. */
export function trustedFoldersPathOf(env: Record<string, string | undefined>): string | null {
  if (env.GEMINI_CLI_TRUSTED_FOLDERS_PATH) return env.GEMINI_CLI_TRUSTED_FOLDERS_PATH;
  const home = geminiHomeOf(env);
  return home ? join(home, '.gemini', 'trustedFolders.json') : null;
}

function malformed(path: string, why: string): RefusedError {
  return new RefusedError('gemini-trust-malformed', `${path} ${why}; it was left untouched. Fix or move it aside, then dispatch again.`, { path });
}

function realKey(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    throw new RefusedError('worktree-missing', `${folder} does not exist; create it before seeding Gemini CLI's folder trust.`, { folder });
  }
}

function readEntries(path: string): JsonObject {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw malformed(path, `cannot be read (${(err as Error).message})`);
  }
  return parseTrustEntries(text, path);
}

/** The entries of a trust file's text; `where` names it in a refusal. */
export function parseTrustEntries(text: string, where: string): JsonObject {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw malformed(where, `is not plain JSON (${(err as Error).message}); kingshand does not rewrite a file it cannot read whole`);
  }
  if (!isObject(parsed)) throw malformed(where, 'does not hold a JSON object');
  return parsed;
}

/**
 * `keys` (real paths) trusted in `entries`, in place: the keys it added (none: already trusted).
 * A DO_NOT_TRUST entry for exactly one of them is the person's word: refused, never flipped.
 */
export function trustFolders(entries: JsonObject, keys: readonly string[], where: string): string[] {
  for (const key of keys) {
    if (entries[key] === 'DO_NOT_TRUST') {
      throw new RefusedError('gemini-folder-distrusted', `${where} says DO_NOT_TRUST for ${key}; kingshand does not overrule it. Remove that entry to let a Gemini CLI worker start there.`, { path: where, folder: key });
    }
  }
  const missing = keys.filter((k) => entries[k] !== 'TRUST_FOLDER');
  for (const key of missing) entries[key] = 'TRUST_FOLDER';
  return missing;
}

/** True when `written` holds every key trusted and no entry lost (the re-read check). */
export function trustWritten(written: unknown, keys: readonly string[], entriesAfter: number): boolean {
  return isObject(written) && Object.keys(written).length === entriesAfter && keys.every((k) => written[k] === 'TRUST_FOLDER');
}

/** Trusts exactly `folders` (real paths) in the trust file at `path`; creates the file (mode 0600) when absent. */
export async function seedGeminiTrust(args: { path: string; folders: readonly string[]; lockTimeoutMs?: number }): Promise<GeminiTrustResult> {
  const keys = [...new Set(args.folders.map(realKey))];
  mkdirSync(dirname(args.path), { recursive: true });
  const existed = existsSync(args.path);
  // Write through a symlink (dotfile managers), never replace the link itself.
  const target = existed ? realpathSync(args.path) : args.path;
  return withProperLockfile(args.path, (): GeminiTrustResult => {
    const entries = existsSync(target) ? readEntries(target) : {};
    const before = Object.keys(entries).length;
    if (trustFolders(entries, keys, args.path).length === 0) return 'already';
    const after = Object.keys(entries).length;
    writeJsonAtomically(target, `${JSON.stringify(entries, null, 2)}\n`, {
      mode: existsSync(target) ? statSync(target).mode & 0o7777 : 0o600,
      verify(written) {
        if (!(after >= before && trustWritten(written, keys, after))) throw new RefusedError('gemini-trust-verify-failed', `the rewritten ${args.path} did not read back as expected; the original was kept unchanged.`);
      },
    });
    return existed ? 'seeded' : 'created';
  }, { timeoutMs: args.lockTimeoutMs });
}
