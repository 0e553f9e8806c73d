/**
 * Gemini CLI's own hooks (0.61.0: settings `hooks`, a JSON payload on stdin) as the worker's
 * second witness, through the same `hand hook <event>` command Claude Code's hooks run. The
 * events that say something about state: BeforeAgent (a prompt was submitted: working),
 * AfterAgent (the turn ended: idle), Notification with `notification_type: "ToolPermission"` (an
 * approval prompt is up: needs input), SessionStart and SessionEnd. Gemini CLI reads a hook's
 * stdout as JSON only; `hand hook` without --json prints nothing and always exits 0.
 */
import { join } from 'node:path';
import { KINGSHAND_ROOT } from '../../root.ts';
import { shellCommand } from '../../workspace/kit-settings.ts';
import { HOOK_TIMEOUT_S } from '../claude/hooks.ts';
import { WITNESS_HOOK_NAME, type GeminiHooks } from './workspace-settings.ts';

export const GEMINI_WITNESS_EVENTS = ['SessionStart', 'SessionEnd', 'BeforeAgent', 'AfterAgent', 'Notification'] as const;

export function geminiWitnessHooks(opts: { node?: string; handBin?: string; home?: string } = {}): GeminiHooks {
  const node = opts.node ?? process.execPath;
  const handBin = opts.handBin ?? join(KINGSHAND_ROOT, 'bin', 'hand.js');
  const home = opts.home ? ['--home', opts.home] : [];
  const out: GeminiHooks = {};
  for (const event of GEMINI_WITNESS_EVENTS) {
    // Gemini CLI's timeout is in milliseconds.
    out[event] = [{ hooks: [{ type: 'command', name: WITNESS_HOOK_NAME, command: shellCommand([node, handBin, ...home, 'hook', event]), timeout: HOOK_TIMEOUT_S * 1000 }] }];
  }
  return out;
}
