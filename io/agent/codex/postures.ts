/**
 * What each kingshand permission posture means to Codex CLI 0.169.0, and what it cannot say.
 * Codex has two knobs: the approval policy (`-a`: `on-request` or `never`; `untrusted` and
 * `on-failure` are gone — 0.169.0 answers `approval_policy = "untrusted" is no longer supported`)
 * and the sandbox (`-s`: `read-only`, `workspace-write`, `danger-full-access`). A command the
 * sandbox allows runs without asking; only a command that asks to leave the sandbox
 * (`sandbox_permissions: "require_escalated"`) is put to a person, as "Would you like to run the
 * following command?". So:
 *   off   — `--dangerously-bypass-approvals-and-sandbox`: nothing asks, nothing is sandboxed
 *           (the same as Claude Code's bypass; kingshand's deny list has no Codex form);
 *   edits — `-a on-request -s workspace-write`: edits and commands inside the worktree (and
 *           the brief directory, `--add-dir`) go through; a command that needs to write
 *           elsewhere, reach the network or write .git (a commit: Codex keeps every .git
 *           read-only in its sandbox, seen with 0.169.0) asks;
 *   ask   — `-a on-request -s read-only`: every write, by an edit or a command, asks; commands
 *           that only read run without asking.
 * Codex's sandbox runs here as root (bubblewrap + seccomp, `codex sandbox` checked by hand) as
 * long as CODEX_HOME is not under the temp directory: Codex then refuses to create its
 * `codex-linux-sandbox` helper and every sandboxed command fails with
 * `bwrap: execvp codex-linux-sandbox: No such file or directory`.
 */
import type { PermissionPosture } from '../../../contract/vocabulary.ts';

export function codexPostureArgs(p: PermissionPosture): string[] {
  if (p === 'off') return ['--dangerously-bypass-approvals-and-sandbox'];
  if (p === 'edits') return ['--ask-for-approval', 'on-request', '--sandbox', 'workspace-write'];
  return ['--ask-for-approval', 'on-request', '--sandbox', 'read-only'];
}

/**
 * What a posture asks of Codex that Codex cannot do, said at dispatch (never silently widened or
 * narrowed). Empty when Codex can do all of it.
 */
export function codexPostureGaps(p: PermissionPosture, inKingshandSandbox = false): string[] {
  // Under off in kingshand's sandbox (io/sandbox/) the secrets and the state directory are not there to deny.
  if (p === 'off') return inKingshandSandbox ? [] : ["kingshand's deny list is not applied: Codex has no deny list, and under off nothing is sandboxed"];
  if (p === 'edits') {
    return [
      'shell commands do not ask: Codex runs them without asking inside its workspace-write sandbox (no writes outside the worktree and the brief directory, no network); only a command that leaves the sandbox asks',
      'a git commit asks: Codex keeps .git read-only inside its sandbox',
    ];
  }
  return ['commands that only read run without asking: Codex asks before writes (read-only sandbox), not before every command'];
}
