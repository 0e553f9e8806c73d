/**
 * A tool of the far account's (gh for a direct-PR landing, issue 28) run on its host, through
 * the host's one ssh master, with that account's own credentials there: its HOME (where gh keeps
 * its login and git its config and credential helpers) and its PATH, and nothing of ours — no
 * token of this machine travels, and none is ever in argv. The script is constant; the
 * directory, the tool and its argv arrive as positional arguments, quoted per element by
 * remoteCommand (ssh-command.ts), never spliced into a shell string.
 */
import { runArgv } from '../process/run-argv.ts';
import { isSshTransportFailure, sshArgv, type SshTarget } from './ssh-command.ts';

/**
 * PATH on the far side for the account's tools: its ~/.local/bin first (a per-user install),
 * then the system's — the same places a far worker's agent is looked for (far-ports.ts farPath).
 */
export const FAR_TOOL_PATH = '$HOME/.local/bin:/usr/local/bin:/usr/bin:/bin';

/** $1 = tool: its path on the far PATH, or exit 127. */
const WHERE = `PATH="$HOME/.local/bin:/usr/local/bin:/usr/bin:/bin"; command -v -- "$1" || exit 127`;
/**
 * $1 = directory, $2… = NAME=VALUE assignments then the tool and its argv: run there with only
 * the far account's HOME, USER and PATH, plus the assignments given (env stops at the tool).
 */
const RUN_IN = 'cd -- "$1" || exit 126; shift; exec env -i HOME="$HOME" USER="$(id -un)" PATH="$HOME/.local/bin:/usr/local/bin:/usr/bin:/bin" "$@"';

export interface FarToolResult {
  /** null: ssh could not reach the host (could not tell), or the tool could not be started. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Why there is no exit status. */
  error?: string;
}

/** Only PATH for the ssh client: ssh sends none of our environment and holds none of it. */
const clientEnv = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin' });

function result(target: SshTarget, r: { exitCode: number | null; stdout: string; stderr: string; error?: string }): FarToolResult {
  if (r.exitCode === null || isSshTransportFailure(r.exitCode, r.stderr)) {
    return { exitCode: null, stdout: r.stdout, stderr: r.stderr, error: `ssh to ${target.user}@${target.address}:${target.port} failed: ${(r.stderr || r.error || '').trim() || 'no message'}` };
  }
  return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr };
}

/** Where `tool` is on the far account's PATH: its path, null when it is not there; an ssh failure is thrown (could not tell). */
export async function farToolPath(target: SshTarget, tool: string): Promise<string | null> {
  const { file, args } = sshArgv(target, ['sh', '-c', WHERE, 'sh', tool]);
  const r = result(target, await runArgv(file, args, { env: clientEnv(), timeoutMs: 20_000 }));
  if (r.exitCode === null) throw new Error(r.error);
  return r.exitCode === 0 && r.stdout.trim() ? r.stdout.trim() : null;
}

/** Runs `tool argv…` in `cwd` on the far host as its account, with `env` added to HOME, USER and PATH there. */
export async function runFarTool(target: SshTarget, cwd: string, tool: string, argv: readonly string[], env: Record<string, string> = {}, timeoutMs = 120_000): Promise<FarToolResult> {
  const assignments = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  const { file, args } = sshArgv(target, ['sh', '-c', RUN_IN, 'sh', cwd, ...assignments, tool, ...argv]);
  return result(target, await runArgv(file, args, { env: clientEnv(), timeoutMs }));
}
