/**
 * The worker's second witness: Claude Code's own hooks. Each hook runs `hand hook <event>` from
 * this installation (absolute node + bin/hand.js, never a PATH lookup), which forwards the
 * payload to the daemon for the worker named by HAND_WORKER_ID (set in the launch environment).
 * The state directory travels as `--home` in the command itself, never as HAND_HOME in the
 * worker's environment: an environment variable is inherited by every command the worker runs,
 * and pointed them all at the daemon (issue 24).
 * The command string is what Claude Code's settings format asks for; every part is quoted.
 */
import { join } from 'node:path';
import { KINGSHAND_ROOT } from '../../root.ts';
import { shellCommand } from '../../workspace/kit-settings.ts';

/**
 * The hooks a worker reports through (payloads as Claude Code 2.1.332 sends them on stdin).
 * StopFailure (2.1.78 and later): the turn ended in an API error or a usage limit (actors/witness.ts).
 */
export const WITNESS_HOOK_EVENTS = ['Notification', 'Stop', 'StopFailure', 'UserPromptSubmit', 'SessionStart', 'SessionEnd'] as const;
export type WitnessHookEvent = (typeof WITNESS_HOOK_EVENTS)[number];

/** The env names the hook reads: which worker it speaks for, and which state directory. */
export const HOOK_WORKER_ENV = 'HAND_WORKER_ID';
export const HOOK_HOME_ENV = 'HAND_HOME';
/** `--env HAND_WITNESS_HOOKS=off` at dispatch: no witness hooks for that worker (a Stop hook suppresses Claude Code's prompt suggestions). */
export const WITNESS_OFF_ENV = 'HAND_WITNESS_HOOKS';

/** Claude Code kills a hook past its timeout (seconds); `hand hook` gives up well before (cli/commands/hook.ts). */
export const HOOK_TIMEOUT_S = 10;

export interface HookCommandEntry {
  type: 'command';
  command: string;
  timeout: number;
}
export type WitnessHooks = Record<WitnessHookEvent, [{ matcher?: string; hooks: [HookCommandEntry] }]>;

export function witnessHooks(opts: { node?: string; handBin?: string; home?: string } = {}): WitnessHooks {
  const node = opts.node ?? process.execPath;
  const handBin = opts.handBin ?? join(KINGSHAND_ROOT, 'bin', 'hand.js');
  const home = opts.home ? ['--home', opts.home] : [];
  const out = {} as WitnessHooks;
  for (const event of WITNESS_HOOK_EVENTS) {
    out[event] = [{ ...(event === 'Notification' ? { matcher: '' } : {}), hooks: [{ type: 'command', command: shellCommand([node, handBin, ...home, 'hook', event]), timeout: HOOK_TIMEOUT_S }] }];
  }
  return out;
}
