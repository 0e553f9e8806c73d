/**
 * How long a client waits for the daemon, per method, and what it says when the wait ends.
 * Issue 25 #3: a SIGSTOPped daemon still accepts connections (the kernel queues them), so every
 * CLI call and every MCP tool hung with no bound. Each call now has a connect bound and a reply
 * bound; a long method (wait, watch, stop) is bounded by its own timeout plus a margin, so a
 * bound never ends a wait the caller asked for.
 */
import { readFileSync } from 'node:fs';
import { readLockHolder } from '../persistence/lock-holder.ts';
import { DaemonUnreachableError } from '../contract/errors.ts';
import type { HomePaths } from '../contract/home.ts';
import type { MethodName } from '../contract/methods.ts';
import { cliEnv } from './io.ts';

/** A Unix socket connect is local: it answers at once or not at all. */
export const CONNECT_BOUND_MS = 5_000;
/** An ordinary request (status, read, send, …) answers in well under a second on a healthy daemon. */
export const DEFAULT_REPLY_BOUND_MS = 20_000;
/** Added to a long method's own timeout: the daemon answers at its bound, then the reply travels. */
export const REPLY_MARGIN_MS = 15_000;
/** Methods that do real work (a worktree, a pane, git evidence, keys read back one by one). */
const SLOW_METHODS = new Set<MethodName>(['dispatch', 'land', 'relaunch', 'resume', 'discard', 'answer', 'approve']);
const SLOW_REPLY_BOUND_MS = 120_000;
/**
 * A calibration drives up to three agent CLIs for at most a minute each, after any calibration
 * already running in the daemon (daemon/calibration/): its own bound, with room for both.
 */
export const CALIBRATE_REPLY_BOUND_MS = 10 * 60_000;
const isSlow = (method: string): boolean => (SLOW_METHODS as ReadonlySet<string>).has(method);

/** A method's own timeout (wait, watch, stop), or the daemon's default for it. */
function timeoutOf(params: object, fallback: number): number {
  const v = 'timeoutMs' in params ? params.timeoutMs : undefined;
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fallback;
}

/**
 * The reply bound of one call. HAND_REPLY_BOUND_MS overrides the ordinary bound (a slow machine,
 * or a test that must not wait 20 s); long methods keep their own.
 */
export function replyBoundMs(method: string, params: object, env: NodeJS.ProcessEnv = cliEnv()): number {
  const override = Number(env.HAND_REPLY_BOUND_MS);
  const ordinary = Number.isFinite(override) && override > 0 ? override : DEFAULT_REPLY_BOUND_MS;
  // The same defaults the daemon applies (daemon/params.ts, handlers.ts).
  if (method === 'wait') return timeoutOf(params, 30 * 60_000) + REPLY_MARGIN_MS;
  if (method === 'watch') return timeoutOf(params, 60_000) + REPLY_MARGIN_MS;
  if (method === 'stop') return timeoutOf(params, 30_000) + REPLY_MARGIN_MS;
  if (method === 'calibrate') return CALIBRATE_REPLY_BOUND_MS;
  if (isSlow(method)) return Math.max(ordinary, SLOW_REPLY_BOUND_MS);
  return ordinary;
}

/** Linux's one-letter process state ('T' stopped, 't' traced, 'D' in the kernel, …), or null. */
export function processState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name is in parentheses and may hold spaces: the state follows the last ')'
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) || null;
  } catch {
    return null;
  }
}

/** True when the process is stopped by a signal (SIGSTOP, SIGTSTP) or a tracer. */
export function isStopped(pid: number): boolean {
  const s = processState(pid);
  return s === 'T' || s === 't';
}

/** What a client says when the daemon did not answer `what` within `boundMs`: the pid, why it may be, the fix. */
export function noAnswerError(paths: HomePaths, what: string, boundMs: number): DaemonUnreachableError {
  const pid = readLockHolder(paths.home)?.pid;
  const who = pid ? `the daemon (pid ${pid})` : 'the daemon';
  const secs = `${Math.round(boundMs / 100) / 10}s`;
  const why =
    pid && isStopped(pid)
      ? `it is stopped (SIGSTOP or a debugger): \`kill -CONT ${pid}\` resumes it`
      : 'it may be stopped (SIGSTOP) or busy';
  const fix = `\`hand daemon status\` checks it without waiting; \`hand daemon stop\` ends it (live tmux workers keep running)${pid ? `, or \`kill ${pid}\`` : ''}`;
  return new DaemonUnreachableError(`${who} did not answer ${what} within ${secs}; ${why}. ${fix}. See ${paths.log}.`, {
    home: paths.home,
    waitedFor: what,
    boundMs,
    ...(pid ? { pid, stopped: isStopped(pid) } : {}),
  });
}
