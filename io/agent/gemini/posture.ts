/**
 * How kingshand's permission postures map onto Gemini CLI 0.61.0's approval modes
 * (`--approval-mode`; `general.defaultApprovalMode` cannot say yolo, so the flag is used for
 * every posture and the launch says it outright):
 *   off   → yolo      (every tool runs without asking; the deny policy still applies)
 *   edits → auto_edit (file edits go through; shell commands ask)
 *   ask   → default   (edits and shell commands ask)
 */
import type { PermissionPosture } from '../../../contract/vocabulary.ts';

export type GeminiApprovalMode = 'yolo' | 'auto_edit' | 'default';

export function geminiApprovalMode(p: PermissionPosture): GeminiApprovalMode {
  return p === 'off' ? 'yolo' : p === 'edits' ? 'auto_edit' : 'default';
}

export function geminiLaunchArgs(p: PermissionPosture): string[] {
  return ['--approval-mode', geminiApprovalMode(p)];
}

/**
 * What a posture asks that Gemini CLI cannot do where kingshand's sandbox is not around it (a far
 * host): Gemini CLI's own sandbox needs a container runtime kingshand does not set up, so its
 * commands run with the worker user's full reach and only its file tools are fenced (workspace +
 * deny policy). In kingshand's sandbox the whole agent is fenced and there is no gap.
 */
export function geminiPostureGap(p: PermissionPosture): string | null {
  if (p !== 'off') return null;
  return "Gemini CLI under permissions off runs shell commands without kingshand's sandbox: the deny list and the workspace fence bind its file tools only, so a shell command can read what the worker's user can. Use --permissions edits (commands ask) where that matters.";
}
