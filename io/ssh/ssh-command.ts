/**
 * How we reach another machine: OpenSSH's own client, in batch mode, with a host key that must
 * already be known (never accepted silently), over ONE multiplexed connection per host
 * (ControlMaster), so a command or a control-mode client costs a channel, not a handshake.
 *
 * ssh hands the far side a single command line that the remote user's shell parses; argv is
 * therefore quoted element by element here (`remoteCommand`), and nothing else in the project
 * builds that string. Secrets never travel in it: a worker's environment goes over stdin into a
 * 0600 file on the far side (see remote-launch-env.ts).
 */
import { hostKeyChangeIn, type HostKeyChange } from './host-key.ts';
export interface SshTarget {
  user: string;
  /** Host name or address the ssh client connects to. */
  address: string;
  port: number;
  /** Private key file; the agent and ~/.ssh/config are not consulted when given. */
  identityFile?: string;
  /** The known_hosts file holding this host's key; StrictHostKeyChecking=yes against it. */
  knownHostsFile: string;
  /** The multiplexing socket (under our local state directory). */
  controlPath: string;
  /** Seconds the master stays up after its last channel closed; default 600. */
  controlPersistSeconds?: number;
  /** ssh executable; default "ssh". */
  sshBin?: string;
  /**
   * Told when ssh refused this host because its key changed (io/ssh/host-key.ts): the host's own
   * condition, kept by whoever made the target (daemon/hosts/far-hosts.ts).
   */
  onHostKeyChanged?(change: HostKeyChange): void;
}

/** One POSIX-shell word: single quotes, and each ' as '\'' — nothing inside is ever expanded. */
export function shellWord(arg: string): string {
  if (arg.includes('\0')) throw new Error('an argument for the far side contains a NUL byte');
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The single remote command line for argv (quoted per element). */
export function remoteCommand(argv: readonly string[]): string {
  if (argv.length === 0) throw new Error('no command for the far side');
  return argv.map(shellWord).join(' ');
}

/** The options every ssh we start carries: batch, strict known host, multiplexed. */
export function sshOptions(target: SshTarget): string[] {
  const opts = [
    '-F', 'none',
    '-p', String(target.port),
    '-l', target.user,
    '-o', 'BatchMode=yes',
    '-o', 'StrictHostKeyChecking=yes',
    '-o', `UserKnownHostsFile=${target.knownHostsFile}`,
    '-o', 'GlobalKnownHostsFile=none',
    '-o', 'ControlMaster=auto',
    '-o', `ControlPath=${target.controlPath}`,
    '-o', `ControlPersist=${target.controlPersistSeconds ?? 600}`,
    '-o', 'ConnectTimeout=10',
    '-o', 'ServerAliveInterval=5',
    '-o', 'ServerAliveCountMax=3',
    // No environment of ours goes over, whatever a config elsewhere says.
    '-o', 'SendEnv=-*',
  ];
  if (target.identityFile) opts.push('-i', target.identityFile, '-o', 'IdentitiesOnly=yes', '-o', 'IdentityAgent=none');
  return opts;
}

/** argv for `ssh … <host> -- <quoted remote argv>`; no pty is asked for (pipes only). */
export function sshArgv(target: SshTarget, remoteArgv: readonly string[]): { file: string; args: string[] } {
  return { file: target.sshBin ?? 'ssh', args: [...sshOptions(target), '-T', target.address, '--', remoteCommand(remoteArgv)] };
}

/** argv that asks the master to leave (`ssh -O exit`): a dropped host, a test's teardown. */
export function sshControlArgv(target: SshTarget, operation: 'check' | 'exit'): { file: string; args: string[] } {
  return { file: target.sshBin ?? 'ssh', args: [...sshOptions(target), '-O', operation, target.address] };
}

/**
 * ssh itself failed (exit 255 and its own words), as opposed to the remote command failing:
 * the host could not be reached or refused us — a "could not tell", never a "no".
 */
/** ssh's own failure words, read for a changed host key; the target's owner is told (once per failure). */
export function noteSshFailure(target: SshTarget, exitCode: number | undefined, stderr: string): void {
  if (exitCode !== 255 || !target.onHostKeyChanged) return;
  const change = hostKeyChangeIn(stderr);
  if (change) target.onHostKeyChanged(change);
}

export function isSshTransportFailure(exitCode: number | undefined, stderr: string): boolean {
  return exitCode === 255 || /^(ssh: |Host key verification failed|Permission denied \(|Connection (closed|reset|refused)|kex_exchange|mux_client)/m.test(stderr);
}
