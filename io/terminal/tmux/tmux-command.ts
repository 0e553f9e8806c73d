/**
 * Runs tmux against our private server: always `-S <socket> -f /dev/null`, always an argv array
 * (never a shell string). Only this file and the control client spawn tmux.
 */
import { execa } from 'execa';

export interface TmuxContext {
  /** tmux executable (default "tmux"). */
  bin: string;
  /** Socket of the private server (lives in our state dir). */
  socketPath: string;
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
  /** The server is definitely not there (no socket, or a stale socket nobody listens on). */
  get noServer(): boolean {
    return /no server running|error connecting to .*\((No such file or directory|Connection refused)\)/i.test(this.stderr);
  }
  /** The target pane/window/session does not exist (any more). */
  get noTarget(): boolean {
    return /can't find (pane|window|session)|session not found|window not found|pane not found/i.test(this.stderr);
  }
}

export function tmuxArgv(ctx: TmuxContext, args: readonly string[]): string[] {
  return ['-S', ctx.socketPath, '-f', '/dev/null', ...args];
}

/**
 * Escapes one argv element for tmux: tmux reads an argument that ENDS in ";" as a command
 * separator (and "\;" as a literal ";"), even in argv. Text and worker argv go through this.
 */
export function tmuxLiteral(arg: string): string {
  return arg.endsWith(';') ? `${arg.slice(0, -1)}\\;` : arg;
}

/** Runs one tmux invocation (possibly several `;`-separated commands); resolves with stdout. */
export async function runTmux(ctx: TmuxContext, args: readonly string[], input?: string | Uint8Array): Promise<string> {
  try {
    const result = await execa(ctx.bin, tmuxArgv(ctx, args), {
      input,
      stripFinalNewline: false,
      encoding: 'utf8',
      timeout: 15_000,
      // Our own TMUX (if the daemon runs inside someone's tmux) must not redirect anything.
      env: { TMUX: '', TMUX_PANE: '' },
      extendEnv: true,
    });
    return result.stdout;
  } catch (err) {
    const e = err as { stderr?: unknown; exitCode?: number; shortMessage?: string; message?: string };
    const stderr = typeof e.stderr === 'string' && e.stderr ? e.stderr : (e.shortMessage ?? e.message ?? String(err));
    throw new TmuxCommandError(args, stderr, e.exitCode);
  }
}
