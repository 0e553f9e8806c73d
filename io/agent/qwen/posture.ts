/**
 * How kingshand's permission postures map onto Qwen Code (0.15.6, 0.15.10): its approval mode on
 * the command line (`--approval-mode`, which wins over any settings file's `tools.approvalMode`)
 * and its permission rules (Claude Code's syntax: `Bash`, `Edit(//abs/**)`, `Read(~/…)`), which it
 * evaluates deny > ask > allow over the union of every settings scope:
 *   off   → yolo      (every tool runs unasked; the deny rules still refuse)
 *   edits → auto-edit (file edits go through; commands and the web ask: an ask rule each)
 *   ask   → default   (edits, commands and the web ask: an ask rule each)
 * The ask rules are what a repository's own `.qwen/settings.json` cannot widen: an `allow: ["Bash"]`
 * there is outranked by ours (tests/agents/qwen/qwen-worker-through-hand.test.ts commits one).
 */
import type { PermissionPosture } from '../../../contract/vocabulary.ts';
import { denyRules, type DenyListArgs } from '../claude/permissions.ts';

export type QwenApprovalMode = 'yolo' | 'auto-edit' | 'default';

export function qwenApprovalMode(p: PermissionPosture): QwenApprovalMode {
  return p === 'off' ? 'yolo' : p === 'edits' ? 'auto-edit' : 'default';
}

export function qwenLaunchArgs(p: PermissionPosture): string[] {
  return ['--approval-mode', qwenApprovalMode(p)];
}

/** The rules a posture puts over every scope's (pure). */
export function qwenPermissionRules(p: PermissionPosture, deny: DenyListArgs): { deny: string[]; ask: string[] } {
  const ask = p === 'off' ? [] : p === 'edits' ? ['Bash', 'WebFetch'] : ['Bash', 'Edit', 'Write', 'WebFetch'];
  return { deny: denyRules(deny), ask };
}

/**
 * What a posture asks that Qwen Code cannot do where kingshand's sandbox is not around it (a far
 * host): its own sandbox needs a container runtime kingshand does not set up, so under yolo its
 * shell commands run with the worker user's full reach; the deny rules bind its file tools only.
 */
export function qwenPostureGap(p: PermissionPosture): string | null {
  if (p !== 'off') return null;
  return "Qwen Code under permissions off runs shell commands without kingshand's sandbox: the deny rules bind its file tools only, so a shell command can read what the worker's user can. Use --permissions edits (commands ask) where that matters.";
}
