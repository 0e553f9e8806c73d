/**
 * Runs tmux against our private server: always `-S <socket> -f /dev/null`, always an argv array
 * (never a shell string). Only this file and the control client spawn tmux.
 */
import { runArgv } from '../../process/run-argv.ts';
import { noteSshFailure, sshArgv, type SshTarget } from '../../ssh/ssh-command.ts';

export interface TmuxContext {
  /** tmux executable (default "tmux"). */
  bin: string;
  /** Socket of the private server (lives in our state dir). */
  socketPath: string;
  /**
   * The server is on another machine: every tmux invocation (commands and the control client)
   * runs there through this ssh target's one multiplexed connection; socketPath is a path there.
   */
  ssh?: SshTarget;
}

export class TmuxCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly stderr: string,
    readonly exitCode: number | undefined,
  ) {
    super(`tmux ${args[0] ?? ''} failed${exitCode === undefined ? '' : ` (exit ${exitCode})`}: ${stderr.trim() || 'no message'}`);
    this.name = 'TmuxCommandError';
  }
  /**
   * The server is definitely not there (no socket, or a stale socket nobody listens on), or it
   * exited while answering: a client that connects while a killed server is still going away
   * gets "server exited unexpectedly" — read as up, it made the reconnect start a new server.
   */
  get noServer(): boolean {
    return this.serverWentAway || /no server running|error connecting to .*\((No such file or directory|Connection refused)\)/i.test(this.stderr);
  }
  /** The server the client reached exited under it: one killed a moment ago, still going away. */
  get serverWentAway(): boolean {
    return /server exited unexpectedly/i.test(this.stderr);
  }
  /** The target pane/window/session does not exist (any more). */
  get noTarget(): boolean {
    return /can't find (pane|window|session)|session not found|window not found|pane not found/i.test(this.stderr);
  }
}

/**
 * `-u`: UTF-8 whatever the locale (without it, a daemon started under LANG=C reads every wide
 * character of a worker's screen back as "_" over control mode).
 */
export function tmuxArgv(ctx: TmuxContext, args: readonly string[]): string[] {
  return ['-u', '-S', ctx.socketPath, '-f', '/dev/null', ...args];
}

/**
 * The environment of every tmux client we spawn: PATH only. A client sends its whole
 * environment to the server on connect (one message per variable); ours may hold a caller's
 * secrets, and nothing a command or control client does here depends on it. Not having our own
 * TMUX also means nothing is redirected to a server someone else runs.
 */
export function tmuxClientEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin' };
}

/**
 * Escapes one argv element for tmux: tmux reads an argument that ENDS in ";" as a command
 * separator (and "\;" as a literal ";"), even in argv. Text and worker argv go through this.
 */
export function tmuxLiteral(arg: string): string {
  return arg.endsWith(';') ? `${arg.slice(0, -1)}\\;` : arg;
}

/** PATH on the far side: the remote tmux is started with this and nothing else of the login's environment. */
const REMOTE_PATH = 'PATH=/usr/local/bin:/usr/bin:/bin';

/**
 * The program and argv that run tmux with `args` against our server: tmux itself here, or ssh
 * running `env -i PATH=… tmux …` on the far side (the same empty-environment rule as locally).
 */
export function tmuxSpawn(ctx: TmuxContext, args: readonly string[]): { file: string; args: string[] } {
  if (!ctx.ssh) return { file: ctx.bin, args: tmuxArgv(ctx, args) };
  return sshArgv(ctx.ssh, ['env', '-i', REMOTE_PATH, ctx.bin, ...tmuxArgv(ctx, args)]);
}

/** How long a tmux command may take before it is given up: a spawned client is killed then. */
export const TMUX_COMMAND_BOUND_MS = 15_000;

/** Runs one tmux invocation (possibly several `;`-separated commands); resolves with stdout. Killed after `timeoutMs` (default TMUX_COMMAND_BOUND_MS). */
export async function runTmux(ctx: TmuxContext, args: readonly string[], input?: string | Uint8Array, timeoutMs = TMUX_COMMAND_BOUND_MS): Promise<string> {
  const spawned = tmuxSpawn(ctx, args);
  const r = await runArgv(spawned.file, spawned.args, { input, timeoutMs, env: tmuxClientEnv() });
  if (r.exitCode === 0) return r.stdout;
  // A far host that refused ssh for a changed key says so to its owner (io/ssh/host-key.ts).
  if (ctx.ssh) noteSshFailure(ctx.ssh, r.exitCode ?? undefined, r.stderr);
  throw new TmuxCommandError(args, r.stderr || r.error || `exit ${r.exitCode}`, r.exitCode ?? undefined);
}
