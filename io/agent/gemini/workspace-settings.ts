/**
 * The per-worker Gemini CLI settings, merged into the worktree's `.gemini/settings.json` (the
 * workspace layer, which overrides the person's ~/.gemini/settings.json and is read only in a
 * trusted folder — trusted-folders.ts makes it so). Nothing in the person's own settings is
 * written. What goes in, each because 0.61.0 would otherwise stop or phone out:
 *  - `security.auth.selectedType: "gemini-api-key"` when the worker's environment carries
 *    GEMINI_API_KEY: without it the "How would you like to authenticate?" dialog opens even with
 *    the key set ("Existing API key detected"). Without a key the person's own choice stands;
 *  - no auto-update, no update notice, no usage statistics, no telemetry;
 *  - the brief directory as an included workspace directory (its file tools refuse any path
 *    outside the workspace, so that is also the fence on writes elsewhere);
 *  - the deny policy file (deny-policy.ts) and the witness hooks, when given.
 * Key-preserving: a file the repository's own files put there keeps every key; only ours are set
 * (arrays get our entries added; our hook groups, named, are replaced, never duplicated).
 * A repository that tracks the file is refused: merged keys would show as a change to commit.
 */
import { claimDirectory, claimRegularFile } from '../../fs/worker-places.ts';
import { existsSync, statSync } from 'node:fs';
import { readUntrustedFile, refusalLine } from '../../fs/untrusted-file.ts';
import { join, resolve } from 'node:path';
import { RefusedError } from '../../../contract/errors.ts';
import { runGit } from '../../git/run-git.ts';
import { writeJsonAtomically } from '../claude/atomic-json.ts';

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The name our hook groups carry, so a second seed replaces them instead of adding more. */
export const WITNESS_HOOK_NAME = 'kingshand-witness';

export interface GeminiHookEntry {
  matcher?: string;
  hooks: [{ type: 'command'; name: string; command: string; timeout: number }];
}
export type GeminiHooks = Record<string, GeminiHookEntry[]>;

export interface GeminiSettingsArgs {
  worktree: string;
  briefDir: string;
  env: Record<string, string | undefined>;
  /** The deny policy file (deny-policy.ts), loaded as a user-tier policy. */
  policyFile?: string;
  hooks?: GeminiHooks;
}

export const WORKSPACE_SETTINGS = join('.gemini', 'settings.json');

function path(obj: JsonObject, keys: readonly string[]): JsonObject {
  let at = obj;
  for (const k of keys) {
    const next = at[k];
    if (next === undefined) at[k] = {};
    else if (!isObject(next)) throw new RefusedError('gemini-settings-malformed', `the worktree's ${WORKSPACE_SETTINGS} has a non-object '${keys.join('.')}'; it was left untouched.`, { key: keys.join('.') });
    at = at[k] as JsonObject;
  }
  return at;
}

function addAll(list: unknown, items: readonly string[]): string[] {
  const out = Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  for (const item of items) if (!out.includes(item)) out.push(item);
  return out;
}

function isOurs(entry: unknown): boolean {
  return isObject(entry) && Array.isArray(entry.hooks) && entry.hooks.some((h) => isObject(h) && h.name === WITNESS_HOOK_NAME);
}

/** Our keys merged into `settings` in place (pure apart from the object given). */
export function mergeGeminiSettings(settings: JsonObject, args: Omit<GeminiSettingsArgs, 'worktree'>): JsonObject {
  if (args.env.GEMINI_API_KEY) path(settings, ['security', 'auth']).selectedType = 'gemini-api-key';
  const general = path(settings, ['general']);
  general.enableAutoUpdate = false;
  general.enableAutoUpdateNotification = false;
  path(settings, ['privacy']).usageStatisticsEnabled = false;
  path(settings, ['telemetry']).enabled = false;
  const context = path(settings, ['context']);
  context.includeDirectories = addAll(context.includeDirectories, [resolve(args.briefDir)]);
  if (args.policyFile) settings.policyPaths = addAll(settings.policyPaths, [args.policyFile]);
  if (args.hooks) {
    const hooks = path(settings, ['hooks']);
    for (const [event, entries] of Object.entries(args.hooks)) {
      const theirs = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]).filter((e) => !isOurs(e)) : [];
      hooks[event] = [...theirs, ...entries];
    }
  }
  return settings;
}

/** A workspace settings file's object; `where` names it in a refusal. */
export function parseGeminiSettings(text: string, where: string): JsonObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new RefusedError('gemini-settings-malformed', `${where} is not plain JSON (${(err as Error).message}); it was left untouched.`, { file: where });
  }
  if (!isObject(parsed)) throw new RefusedError('gemini-settings-malformed', `${where} does not hold a JSON object; it was left untouched.`, { file: where });
  return parsed;
}

const OURS = ['security', 'general', 'privacy', 'telemetry', 'context', 'policyPaths', 'hooks'];
/** The top-level keys that are not ours to set (each must still be there after the merge). */
export const theirKeys = (settings: JsonObject): string[] => Object.keys(settings).filter((k) => !OURS.includes(k));
/** True when `written` kept every key in `before` and carries our context (the re-read check). */
export const keptKeys = (written: unknown, before: readonly string[]): boolean => isObject(written) && before.every((k) => Object.hasOwn(written, k)) && isObject(written.context);

/** The refusal for a tracked settings file. */
export function trackedSettingsRefusal(file: string): RefusedError {
  return new RefusedError(
    'gemini-settings-tracked',
    `this repository tracks ${WORKSPACE_SETTINGS}, where a Gemini CLI worker's settings (trust of its brief directory, no telemetry, its hooks) must go; merging them would change a tracked file the worker could commit. Dispatch this task with --agent claude, or move the project's Gemini settings out of the repository.`,
    { file },
  );
}

/** Whether git tracks the worktree's .gemini/settings.json (where git runs: here or on the worker's host). */
export async function settingsTracked(worktree: string): Promise<boolean> {
  const r = await runGit(worktree, ['ls-files', '--error-unmatch', '--', WORKSPACE_SETTINGS]);
  return r.exitCode === 0;
}

export async function writeGeminiSettings(args: GeminiSettingsArgs): Promise<{ path: string; settings: JsonObject }> {
  if (!existsSync(args.worktree) || !statSync(args.worktree).isDirectory()) {
    throw new RefusedError('worktree-missing', `worktree ${args.worktree} does not exist; create the worktree before writing its Gemini CLI settings.`, { worktree: args.worktree });
  }
  const file = join(args.worktree, WORKSPACE_SETTINGS);
  if (await settingsTracked(args.worktree)) throw trackedSettingsRefusal(file);
  // The worktree is the worker's (issue 37): a link it left in place of .gemini or of the file is
  // removed (never read through nor written through), and the file is read as a stranger's — a
  // FIFO would hold the daemon, a hard link would be someone else's file.
  claimDirectory(join(args.worktree, '.gemini'));
  claimRegularFile(file);
  const read = await readUntrustedFile(file, { maxBytes: 1 << 20 });
  if (read.kind === 'refused' || (read.kind === 'read' && read.truncated)) {
    throw new RefusedError('gemini-settings-refused', `the worktree's ${WORKSPACE_SETTINGS} was ${read.kind === 'refused' ? refusalLine(read) : 'refused: it is over 1 MiB'}; it was left untouched. Remove it from the worktree, then dispatch or relaunch again.`, { file });
  }
  const settings = read.kind === 'read' ? parseGeminiSettings(read.text, file) : {};
  const before = theirKeys(settings);
  mergeGeminiSettings(settings, args);
  writeJsonAtomically(file, `${JSON.stringify(settings, null, 2)}\n`, {
    verify(written) {
      const ok = keptKeys(written, before);
      if (!ok) throw new RefusedError('gemini-settings-verify-failed', `the rewritten ${file} did not read back as expected; the original was kept unchanged.`);
    },
  });
  return { path: file, settings };
}
