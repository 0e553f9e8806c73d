/**
 * The per-worker Claude Code settings, written into the worktree before launch because the
 * launch takes no arguments (control-plane §2.5, §2.8). Overwritten on every dispatch, never
 * merged. `additionalDirectories` is always an array (a bare string reads as malformed and the
 * worker cannot reach its brief) holding exactly the brief's own directory: read-first files are
 * copied there so that no wider directory — with every other brief and report — is granted.
 * No env block, no model key; the deny list and write fence come from the posture (permissions.ts).
 * Attribution is off for every worker: `hand land` refuses a commit naming a co-author, and
 * Claude Code adds one by default (2.1.332 tells the model to in a system reminder).
 */
import { claimDirectory, claimRegularFile } from '../../fs/worker-places.ts';
import { statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { RefusedError, UsageError } from '../../../contract/errors.ts';
import { writeJsonAtomically } from './atomic-json.ts';
import type { WitnessHooks } from './hooks.ts';
import type { ClaudeSandbox } from './sandbox.ts';

export const CLAUDE_PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'bypassPermissions', 'auto', 'dontAsk'] as const;
export type ClaudePermissionMode = (typeof CLAUDE_PERMISSION_MODES)[number];

export interface WorktreeSettings {
  permissions: { defaultMode: ClaudePermissionMode; additionalDirectories: [string]; deny?: string[]; blockWritesOutsideWorkingDirectories?: true };
  skipDangerousModePermissionPrompt?: true;
  attribution: typeof ATTRIBUTION_OFF.attribution;
  includeCoAuthoredBy: false;
  /** The witness hooks (io/agent/claude/hooks.ts): Claude Code's own word on its state. */
  hooks?: WitnessHooks;
  /** Claude Code's sandbox for Bash (io/agent/claude/sandbox.ts), under posture off. */
  sandbox?: ClaudeSandbox;
}

/** The posture's constraints (io/agent/claude/permissions.ts), added to the settings when given. */
export interface PostureExtras {
  deny: string[];
  blockWritesOutsideWorkingDirectories?: true;
  skipDangerousModePermissionPrompt?: true;
  sandbox?: ClaudeSandbox;
}

/**
 * 2.1.332 reads `attribution` ({commit, pr}: an empty string hides that attribution); its schema
 * says builds older than the boolean form reject `attribution: false`, so the object form is the
 * one every build takes. `includeCoAuthoredBy: false` is what the older builds of the corpus read
 * (2.1.332 still honours it, marked deprecated).
 */
export const ATTRIBUTION_OFF = { attribution: { commit: '', pr: '' }, includeCoAuthoredBy: false } as const;

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The settings object alone (no file): what writeClaudeSettings writes here, and what a far
 * worker's seed writes on its host (daemon/hosts/far-ports.ts), whose directories cannot be
 * checked from this machine.
 */
export function claudeSettings(args: { briefDir: string; permissionMode: ClaudePermissionMode; posture?: PostureExtras; hooks?: WitnessHooks }): WorktreeSettings {
  if (!(CLAUDE_PERMISSION_MODES as readonly string[]).includes(args.permissionMode)) {
    throw new UsageError('bad-permission-mode', `permission mode ${JSON.stringify(args.permissionMode)} is not one Claude Code knows; use one of ${CLAUDE_PERMISSION_MODES.join(', ')}.`);
  }
  const settings: WorktreeSettings = {
    permissions: { defaultMode: args.permissionMode, additionalDirectories: [resolve(args.briefDir)] },
    attribution: { ...ATTRIBUTION_OFF.attribution },
    includeCoAuthoredBy: false,
  };
  if (args.posture) {
    settings.permissions.deny = [...args.posture.deny];
    if (args.posture.blockWritesOutsideWorkingDirectories) settings.permissions.blockWritesOutsideWorkingDirectories = true;
    if (args.posture.skipDangerousModePermissionPrompt) settings.skipDangerousModePermissionPrompt = true;
    if (args.posture.sandbox) settings.sandbox = args.posture.sandbox;
  }
  if (args.hooks) settings.hooks = args.hooks;
  return settings;
}

export function writeClaudeSettings(args: { worktree: string; briefDir: string; permissionMode: ClaudePermissionMode; posture?: PostureExtras; hooks?: WitnessHooks }): { path: string; settings: WorktreeSettings } {
  if (!isDirectory(args.worktree)) {
    // Never create it: a missing worktree means the git step did not happen, and settings alone would hide that.
    throw new RefusedError('worktree-missing', `worktree ${args.worktree} does not exist; create the worktree before writing its Claude settings.`, { worktree: args.worktree });
  }
  if (!isAbsolute(args.briefDir) || !isDirectory(args.briefDir)) {
    throw new RefusedError('brief-dir-missing', `brief directory ${args.briefDir} must be an existing absolute directory; write the brief first, then the settings.`, {
      briefDir: args.briefDir,
    });
  }
  const settings = claudeSettings(args);
  const dir = join(args.worktree, '.claude');
  // The worktree is the worker's: a link it left in place of .claude (or of the file) is removed,
  // never written through into another repository's settings or the person's.
  claimDirectory(dir);
  const path = join(dir, 'settings.local.json');
  claimRegularFile(path);
  writeJsonAtomically(path, `${JSON.stringify(settings, null, 2)}\n`);
  return { path, settings };
}
