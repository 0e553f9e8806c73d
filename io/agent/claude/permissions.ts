/**
 * The permission posture a worker runs under, per project (`hand annex --permissions`):
 *   off   — Claude Code asks for nothing; constrained instead by a deny list and by refusing
 *           file-tool writes outside the worker's own directories (the seed's default);
 *   edits — file edits go through, shell commands ask a person (acceptEdits);
 *   ask   — every write and command asks (Claude Code's manual mode).
 *
 * Verified against Claude Code 2.1.332 (docs/2026-12-01-permission-posture-off.md):
 *  - `permissions.defaultMode: "bypassPermissions"` in a worktree's settings.local.json is ignored
 *    (the session starts in manual mode), so `off` launches with `--permission-mode bypassPermissions`;
 *  - that flag raises a one-time "Bypass Permissions mode" warning dialog (default "No, exit"),
 *    which `skipDangerousModePermissionPrompt: true` in the same settings.local.json pre-seeds
 *    — nothing in the person's ~/.claude.json or ~/.claude/settings.json is touched;
 *  - as root (uid 0) Claude Code exits 1 in that mode unless IS_SANDBOX=1: dispatch refuses first.
 */
import { RefusedError, UsageError } from '../../../contract/errors.ts';
import { claudeSettings, writeClaudeSettings, type WorktreeSettings } from './worktree-settings.ts';
import type { WitnessHooks } from './hooks.ts';
import { sandboxSettings } from './sandbox.ts';
import { reportDirOf } from '../../brief/worker-layout.ts';

// The vocabulary is the wire's (contract/vocabulary.ts); what each posture means to Claude Code is here.
export { PERMISSION_POSTURES, type PermissionPosture } from '../../../contract/vocabulary.ts';
import { PERMISSION_POSTURES, type PermissionPosture } from '../../../contract/vocabulary.ts';
export const DEFAULT_PERMISSION_POSTURE: PermissionPosture = 'off';

export function parsePermissionPosture(raw: unknown): PermissionPosture {
  if (raw === undefined || raw === null || raw === '') return DEFAULT_PERMISSION_POSTURE;
  if (typeof raw === 'string' && (PERMISSION_POSTURES as readonly string[]).includes(raw)) return raw as PermissionPosture;
  throw new UsageError('bad-permissions', `--permissions ${JSON.stringify(raw)} is unknown. Use off (ask for nothing, deny list applies), edits (edits go through, commands ask) or ask (everything asks).`, {
    permissions: raw,
  });
}

/** What a person reads in `hand status` and dispatch output. */
export function describePosture(p: PermissionPosture): string {
  if (p === 'off') return 'permissions off (no prompts; deny list applies)';
  if (p === 'edits') return 'permissions edits (edits allowed; commands ask)';
  return 'permissions ask (everything asks)';
}

/** The Claude Code mode each posture stands for. */
export function claudeModeOf(p: PermissionPosture): 'bypassPermissions' | 'acceptEdits' | 'default' {
  return p === 'off' ? 'bypassPermissions' : p === 'edits' ? 'acceptEdits' : 'default';
}

/** Extra launch arguments for Claude Code: only `off` needs one (settings cannot ask for bypass). */
export function claudeLaunchArgs(p: PermissionPosture): string[] {
  return p === 'off' ? ['--permission-mode', 'bypassPermissions'] : [];
}

/** A rule path for an absolute directory: Claude Code reads `//abs/path` as absolute, `/x` as settings-relative. */
function abs(p: string): string {
  return `/${p.startsWith('/') ? p : `/${p}`}`;
}

export interface DenyListArgs {
  /** The worker's HOME (the `~` of its rules); also written absolutely, so either form matches. */
  agentHome?: string;
  /** kingshand's state directory: its database and standing files are not the worker's. */
  stateDir?: string;
  /** Extra instructions.md files to protect (the Hand's workspace, when one exists). */
  instructionsFiles?: string[];
  /** The worker's brief directory: the daemon's files there are never the worker's to edit. */
  briefDir?: string;
  /** Its report directory (where it writes); the brief directory itself for a worker of the old layout. */
  reportDir?: string;
}

/** The daemon's files in a brief directory (io/brief/worker-layout.ts): read by the worker, written by the daemon alone. */
export const DAEMON_FILES_IN_BRIEF_DIR = ['brief.md', 'progress-note.md', 'read-first/**', 'first-prompt.sent', 'delivery.json', 'gemini-deny-policy.toml', 'qwen-system-settings.json', 'qwen-trusted-folders.json'];

/** Secrets a worker never reads, relative to a home directory. */
const SECRET_DIRS = ['.ssh/**', '.aws/**', '.config/gcloud/**', '.azure/**', '.kube/**', '.docker/config.json', '.netrc', '.git-credentials', '.claude/.credentials.json'];

// Edit rules cover every file write: Claude Code 2.1.332 warns on each Write(<path>) rule that it
// "never matches · use Edit(…)", one screen line per rule on every worker, so none is written.
export function denyRules(a: DenyListArgs): string[] {
  const rules = new Set<string>();
  for (const s of SECRET_DIRS) rules.add(`Read(~/${s})`);
  if (a.agentHome) for (const s of SECRET_DIRS) rules.add(`Read(${abs(a.agentHome)}/${s})`);
  if (a.stateDir) {
    const st = abs(a.stateDir);
    // The database and daemon files: neither read nor written by a worker.
    for (const f of ['fleet.db', 'fleet.db-wal', 'fleet.db-shm', 'daemon.lock', 'daemon.log']) {
      rules.add(`Read(${st}/${f})`);
      rules.add(`Edit(${st}/${f})`);
    }
    // Standing files and every brief are the Hand's; a worker writes only its report.
    for (const f of ['data/**', 'workers/*/brief.md', '**/instructions.md']) {
      rules.add(`Edit(${st}/${f})`);
    }
  }
  for (const f of a.instructionsFiles ?? []) {
    rules.add(`Edit(${abs(f)})`);
  }
  // The brief directory is granted so the worker reads it; it writes only its report directory
  // (issue 37): the file tools may not touch what the daemon wrote there.
  if (a.briefDir && a.reportDir !== a.briefDir) {
    for (const f of DAEMON_FILES_IN_BRIEF_DIR) rules.add(`Edit(${abs(a.briefDir)}/${f})`);
  }
  return [...rules];
}

/**
 * `outerSandbox`: the worker runs in kingshand's own sandbox around the whole agent (io/sandbox/),
 * which Claude Code's sandbox cannot nest in (its bubblewrap is refused a /proc of its own), so its
 * block is left out: the outer one is the boundary for every tool, Bash included.
 */
type PostureArgs = { worktree: string; briefDir: string; reportDir?: string; hooks?: WitnessHooks; gitCommonDir?: string; outerSandbox?: boolean } & DenyListArgs;

/** The report directory a posture writes for: the one given, else the layout's `<briefDir>/out`. */
const reportDirOfArgs = (a: PostureArgs): string => a.reportDir ?? reportDirOf(a.briefDir);

/** What a posture puts in Claude Code's settings: its mode, the deny list, the write fence, off's sandbox. */
function postureParts(p: PermissionPosture, given: PostureArgs) {
  const args = { ...given, reportDir: reportDirOfArgs(given) };
  return {
    briefDir: args.briefDir,
    permissionMode: claudeModeOf(p),
    ...(args.hooks ? { hooks: args.hooks } : {}),
    posture: {
      deny: denyRules(args),
      // The worker writes only in its worktree and its brief directory, whatever the mode.
      blockWritesOutsideWorkingDirectories: true as const,
      // Nobody reads a command before it runs under off: the sandbox is the boundary, not the deny list.
      ...(p === 'off' ? { skipDangerousModePermissionPrompt: true as const, ...(args.outerSandbox ? {} : { sandbox: sandboxSettings(args) }) } : {}),
    },
  };
}

/** Writes the worktree's settings.local.json for this posture (overwritten on every launch setup). */
export function writePostureSettings(p: PermissionPosture, args: PostureArgs): { path: string; settings: WorktreeSettings } {
  return writeClaudeSettings({ worktree: args.worktree, ...postureParts(p, args) });
}

/** The same settings as an object, for a worktree on another host (written there, not here). */
export function postureSettings(p: PermissionPosture, args: PostureArgs): WorktreeSettings {
  return claudeSettings(postureParts(p, args));
}

/**
 * Claude Code refuses bypass mode as root (it prints "--dangerously-skip-permissions cannot be
 * used with root/sudo privileges" and exits 1) unless IS_SANDBOX=1 is in its environment.
 * Refused at dispatch, before anything is created, with the ways out.
 */
export function rootProblem(p: PermissionPosture, project: string, env: Record<string, string | undefined>, uid = typeof process.getuid === 'function' ? process.getuid() : -1): RefusedError | null {
  if (p !== 'off' || uid !== 0 || env.IS_SANDBOX === '1') return null;
  return new RefusedError(
    'permissions-off-as-root',
    'this worker would run as root, and Claude Code refuses to skip permission prompts as root (it would exit at once). ' +
      `Run hand as a normal user; or, inside a disposable container, pass --env IS_SANDBOX=1; or change the posture: hand project set ${project} --permissions edits.`,
    { permissions: p, project },
  );
}
