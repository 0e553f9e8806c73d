/**
 * Claude Code's own sandbox for a worker's shell commands (issue 24 item 2). The deny list is a
 * list of tool patterns: `python3 -c "open(...'/.ss'+'h/id_ed25519')"` read the key and
 * `cat $STATE/review.token` was never matched. Under the sandbox (bubblewrap on Linux) every Bash
 * command and its children see the state directory and the person's credentials as empty or
 * absent, and may write only the worktree (Claude Code's default), the worker's report directory
 * (out/ in its brief directory: the brief directory itself is read, never written — issue 37) and
 * the repository's git directory (a commit writes objects, its branch and its worktree's index there).
 *
 * Verified with 2.1.332 against the fake model API (docs/2026-12-01-workers-get-no-secret-and-no-voice.md):
 * python3, node, perl, dd, a hard link and /proc/self/root of a denied path all fail; the brief
 * directory, re-allowed inside the denied state directory, is readable and writable.
 */
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { RefusedError } from '../../../contract/errors.ts';

export interface ClaudeSandbox {
  enabled: true;
  /** A missing bubblewrap/socat is a refusal to run commands, never a silent run without the sandbox. */
  failIfUnavailable: true;
  /** No `dangerouslyDisableSandbox` way around it for the model. */
  allowUnsandboxedCommands: false;
  autoAllowBashIfSandboxed: true;
  filesystem: { denyRead: string[]; allowRead: string[]; allowWrite: string[]; denyWrite: string[] };
}

export interface SandboxArgs {
  worktree: string;
  /** Read: the brief, its read-first copies, the progress note. */
  briefDir: string;
  /** Written: the report (`<briefDir>/out`, or the brief directory for a worker of the old layout). */
  reportDir: string;
  /** kingshand's state directory: database, keys, tokens, socket, other workers' briefs. */
  stateDir?: string;
  /** The worker's HOME: its credentials are denied by location. */
  agentHome?: string;
  /** The repository's common git directory (`git rev-parse --git-common-dir`). */
  gitCommonDir?: string;
}

/** Credentials under a home directory that no worker command reads (files or directories). */
export const SANDBOX_SECRETS = [
  '.ssh', '.aws', '.gnupg', '.config/gh', '.config/gcloud', '.azure', '.kube', '.docker/config.json',
  '.netrc', '.git-credentials', '.npmrc', '.claude/.credentials.json',
] as const;

export function sandboxSettings(a: SandboxArgs): ClaudeSandbox {
  const denyRead = [...(a.stateDir ? [a.stateDir] : []), ...(a.agentHome ? SANDBOX_SECRETS.map((s) => join(a.agentHome!, s)) : [])];
  return {
    enabled: true,
    failIfUnavailable: true,
    allowUnsandboxedCommands: false,
    autoAllowBashIfSandboxed: true,
    filesystem: {
      denyRead,
      // The brief directory lives inside the denied state directory: it alone comes back, to read;
      // only its report directory is written.
      allowRead: [a.briefDir],
      allowWrite: [a.reportDir, ...(a.gitCommonDir ? [a.gitCommonDir] : [])],
      // What would undo the rest: the base guard and git's config (core.hooksPath), and the
      // worker's own settings, which hold this very block.
      denyWrite: [...(a.gitCommonDir ? [join(a.gitCommonDir, 'hooks'), join(a.gitCommonDir, 'config')] : []), join(a.worktree, '.claude')],
    },
  };
}

/** What Claude Code's sandbox needs on Linux, looked up on the worker's PATH. */
export const SANDBOX_PROGRAMS = ['bwrap', 'socat'] as const;

function onPath(program: string, path: string | undefined): boolean {
  for (const dir of (path ?? '').split(':')) {
    if (!dir) continue;
    try {
      accessSync(join(dir, program), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

/**
 * Posture off needs the sandbox: where the worker's Claude Code could not start it (Linux
 * without bubblewrap or socat on its PATH), dispatch refuses first, naming what is missing and
 * the ways out. macOS needs nothing (Seatbelt is built in); other platforms are not checked.
 */
export function sandboxProblem(p: string, project: string, env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): RefusedError | null {
  if (p !== 'off' || platform !== 'linux') return null;
  const missing = SANDBOX_PROGRAMS.filter((prog) => !onPath(prog, env.PATH));
  if (missing.length === 0) return null;
  const pkgs = missing.map((m) => (m === 'bwrap' ? 'bubblewrap' : m)).join(' ');
  return new RefusedError(
    'sandbox-unavailable',
    `posture off runs a worker's commands in Claude Code's sandbox, which needs ${missing.join(' and ')} on the worker's PATH, and ${missing.length === 1 ? 'it is' : 'they are'} not there; nothing was created. ` +
      `Install ${pkgs} (sudo apt-get install -y ${pkgs}), or change the posture so a person reads each command: hand project set ${project} --permissions edits.`,
    { permissions: p, project, missing },
  );
}
