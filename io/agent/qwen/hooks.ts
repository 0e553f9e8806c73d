/**
 * Qwen Code's own hooks (0.15.6, 0.15.10) as the worker's second witness. They are Claude Code's:
 * the same event names (UserPromptSubmit, Stop, StopFailure, Notification with
 * `notification_type: "permission_prompt"`, SessionStart, SessionEnd), the same settings shape
 * and a JSON payload on stdin, so `hand hook <event>` hears them as it hears Claude Code's. One
 * difference: 0.15.10 runs a command hook's `timeout` as milliseconds (executeCommandHook), though
 * its schema says seconds — Claude Code's `10` would kill every hook after 10 ms.
 */
import { HOOK_TIMEOUT_S, witnessHooks, type WitnessHooks } from '../claude/hooks.ts';

export function qwenWitnessHooks(opts: { node?: string; handBin?: string; home?: string } = {}): WitnessHooks {
  const hooks = witnessHooks(opts);
  for (const entries of Object.values(hooks)) for (const entry of entries) for (const h of entry.hooks) h.timeout = HOOK_TIMEOUT_S * 1000;
  return hooks;
}
