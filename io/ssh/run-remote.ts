/**
 * Runs one program on the far side over the host's multiplexed ssh connection: argv quoted per
 * element, input over stdin (the only way data such as a worker's environment travels there).
 */
import { isSshTransportFailure, noteSshFailure, sshArgv, sshControlArgv, type SshTarget } from './ssh-command.ts';

export class RemoteCommandError extends Error {
  override name = 'RemoteCommandError';
  constructor(
    readonly argv: readonly string[],
    readonly stderr: string,
    readonly exitCode: number | undefined,
  ) {
    super(`${argv[0] ?? ''} on the far side failed${exitCode === undefined ? '' : ` (exit ${exitCode})`}: ${stderr.trim() || 'no message'}`);
  }
  /** ssh could not reach or enter the host: nothing is known about the command. */
  get unreachable(): boolean {
    return isSshTransportFailure(this.exitCode, this.stderr);
  }
}

/** Only PATH: ssh sends none of our environment, and the ssh process should not hold it either. */
function clientEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin' };
}

export async function runRemote(target: SshTarget, argv: readonly string[], input?: string, timeoutMs = 20_000): Promise<string> {
  const { file, args } = sshArgv(target, argv);
  try {
    const { execa } = await import('execa'); // loaded when first needed: its load is a tenth of a second (io/process/run-argv.ts)
    const result = await execa(file, args, { input, encoding: 'utf8', timeout: timeoutMs, env: clientEnv(), extendEnv: false, stripFinalNewline: false });
    return result.stdout;
  } catch (err) {
    const e = err as { stderr?: unknown; exitCode?: number; shortMessage?: string; message?: string };
    const stderr = typeof e.stderr === 'string' && e.stderr ? e.stderr : (e.shortMessage ?? e.message ?? String(err));
    noteSshFailure(target, e.exitCode, stderr);
    throw new RemoteCommandError(argv, stderr, e.exitCode);
  }
}

/** Asks the host's master connection to leave (no error when there is none). */
export async function closeMaster(target: SshTarget): Promise<void> {
  const { file, args } = sshControlArgv(target, 'exit');
  const { execa } = await import('execa'); // loaded when first needed: its load is a tenth of a second (io/process/run-argv.ts)
  await execa(file, args, { reject: false, timeout: 10_000, env: clientEnv(), extendEnv: false });
}
