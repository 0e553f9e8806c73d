/**
 * Qwen Code's per-worker settings, in its highest scope: the system settings file, which it reads
 * from QWEN_CODE_SYSTEM_SETTINGS_PATH and merges over the person's user settings (`~/.qwen`) and
 * the repository's workspace settings (`.qwen/settings.json`), arrays of rules as a union. The
 * file is the daemon's, in the worker's brief directory (written by an atomic create: a link
 * planted at its name is replaced, never written through), so nothing of the person's and nothing
 * in the worktree is written. The machine's own system settings (`/etc/qwen-code/settings.json`,
 * or the file the person's variable names) are read and kept under ours, and its system defaults
 * file stays where it was (its path would otherwise follow ours).
 * Ours: the posture's deny and ask rules (posture.ts), the witness hooks, no auto-update, usage
 * statistics, telemetry or commit attribution, the brief directory as a workspace directory, hooks not disabled.
 * Beside it, a trust file of the worker's own (QWEN_CODE_TRUSTED_FOLDERS_PATH): the person's
 * entries and the worktree and brief directory, so a person who turned folder trust on is not
 * asked at every start.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { RefusedError } from '../../../contract/errors.ts';
import type { PermissionPosture } from '../../../contract/vocabulary.ts';
import { createFileAtomically } from '../../fs/atomic-create.ts';
import type { WitnessHooks } from '../claude/hooks.ts';
import { parseTrustEntries, trustFolders } from '../gemini/trusted-folders.ts';
import { qwenPermissionRules } from './posture.ts';

export const QWEN_SYSTEM_SETTINGS_FILE = 'qwen-system-settings.json';
export const QWEN_TRUST_FILE = 'qwen-trusted-folders.json';
/** Qwen Code's own system settings path on Linux when no variable names another. */
export const QWEN_MACHINE_SETTINGS = '/etc/qwen-code/settings.json';
/** 0.15.10 rewrites a settings file without this version key (SETTINGS_VERSION); ours carries it. */
const SETTINGS_VERSION = 4;

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface QwenWorkerSettingsArgs {
  posture: PermissionPosture;
  worktree: string;
  briefDir: string;
  reportDir: string;
  /** The worker's HOME (its `~`, on the deny list). */
  home?: string | undefined;
  stateDir?: string | undefined;
  hooks?: WitnessHooks | undefined;
}

function child(o: JsonObject, key: string): JsonObject {
  if (!isObject(o[key])) o[key] = {};
  return o[key] as JsonObject;
}

const union = (list: unknown, more: readonly string[]): string[] => [...new Set([...(Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []), ...more])];

/** Ours merged over the machine's system settings (`base`, kept), pure apart from the copy it makes. */
export function qwenWorkerSettings(base: JsonObject, a: QwenWorkerSettingsArgs): JsonObject {
  const s = structuredClone(base);
  s.$version = SETTINGS_VERSION;
  const general = child(s, 'general');
  general.enableAutoUpdate = false;
  // Its shell tool adds `Co-authored-by: Qwen-Coder` to every commit it makes (and a git note):
  // the landing refuses a commit that names an assistant. 0.15.10's shape (0.15.6 took a boolean).
  general.gitCoAuthor = { commit: false, pr: false };
  child(s, 'privacy').usageStatisticsEnabled = false;
  child(s, 'telemetry').enabled = false;
  const context = child(s, 'context');
  context.includeDirectories = union(context.includeDirectories, [resolve(a.briefDir)]);
  const rules = qwenPermissionRules(a.posture, { agentHome: a.home, stateDir: a.stateDir, briefDir: a.briefDir, reportDir: a.reportDir });
  const permissions = child(s, 'permissions');
  permissions.deny = union(permissions.deny, rules.deny);
  if (rules.ask.length > 0) permissions.ask = union(permissions.ask, rules.ask);
  if (a.hooks) {
    // A workspace's `disableAllHooks: true` would silence the witness; the system scope wins.
    s.disableAllHooks = false;
    const hooks = child(s, 'hooks');
    for (const [event, entries] of Object.entries(a.hooks)) hooks[event] = [...(Array.isArray(hooks[event]) ? hooks[event] as unknown[] : []), ...entries];
  }
  return s;
}

/** The machine's system settings file for this environment (the person's variable, else Qwen Code's default). */
export function machineSettingsPath(env: Record<string, string | undefined>): string {
  return env.QWEN_CODE_SYSTEM_SETTINGS_PATH || QWEN_MACHINE_SETTINGS;
}

function readJsonObject(path: string): JsonObject {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed: unknown = JSON.parse(text.replace(/^\s*\/\/.*$/gm, ''));
    if (isObject(parsed)) return parsed;
  } catch { /* refused below */ }
  throw new RefusedError('qwen-settings-malformed', `${path} is not a JSON object kingshand can read whole; a Qwen Code worker's settings are merged over it, so nothing was started. Fix that file, or point QWEN_CODE_SYSTEM_SETTINGS_PATH elsewhere.`, { file: path });
}

/** The person's QWEN_HOME (their `~/.qwen`) for this environment, or null. */
export function personsQwenHome(env: Record<string, string | undefined>): string | null {
  return env.QWEN_HOME || (env.HOME ? join(env.HOME, '.qwen') : null);
}

/**
 * Writes both files into the brief directory (the person's read, never written) and returns
 * their paths. `env`: the launch environment (its HOME, the person's Qwen variables).
 */
export function writeQwenWorkerSettings(a: QwenWorkerSettingsArgs, env: Record<string, string | undefined>): { settings: string; trust: string } {
  // Both are read and merged before either is written: a refusal leaves the brief directory as it was.
  const text = `${JSON.stringify(qwenWorkerSettings(readJsonObject(machineSettingsPath(env)), a), null, 2)}\n`;
  const qwenHome = personsQwenHome(env);
  const theirs = env.QWEN_CODE_TRUSTED_FOLDERS_PATH || (qwenHome ? join(qwenHome, 'trustedFolders.json') : null);
  let entries: JsonObject = {};
  if (theirs) {
    try {
      entries = parseTrustEntries(readFileSync(theirs, 'utf8'), theirs);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  // Keyed by real paths, as Qwen Code compares them.
  trustFolders(entries, [...new Set([realpathSync(a.worktree), realpathSync(a.briefDir)])], theirs ?? QWEN_TRUST_FILE);
  const settings = join(a.briefDir, QWEN_SYSTEM_SETTINGS_FILE);
  const trust = join(a.briefDir, QWEN_TRUST_FILE);
  createFileAtomically(settings, text, { mode: 0o644 });
  createFileAtomically(trust, `${JSON.stringify(entries, null, 2)}\n`, { mode: 0o644 });
  return { settings, trust };
}

/** The launch variables that point Qwen Code at them (and keep the machine's defaults file where it was). */
export function qwenLaunchVariables(briefDir: string, env: Record<string, string | undefined>): Record<string, string> {
  return {
    QWEN_CODE_SYSTEM_SETTINGS_PATH: join(briefDir, QWEN_SYSTEM_SETTINGS_FILE),
    QWEN_CODE_SYSTEM_DEFAULTS_PATH: env.QWEN_CODE_SYSTEM_DEFAULTS_PATH || join(dirname(machineSettingsPath(env)), 'system-defaults.json'),
    QWEN_CODE_TRUSTED_FOLDERS_PATH: join(briefDir, QWEN_TRUST_FILE),
  };
}
