/**
 * The launch-env rule of launch-env-file.ts on another machine: a worker's environment goes over
 * ssh's stdin into a fresh 0600 file in a 0700 directory on the far side, and the pane runs the
 * same constant launcher, which reads the file, deletes it and execs the program. Only the
 * file's path and the program's argv are ever in a command line (here or there).
 */
import { randomBytes } from 'node:crypto';
import { launcherArgv } from '../terminal/launch-env-file.ts';
import { runRemote } from './run-remote.ts';
import type { SshTarget } from './ssh-command.ts';

/**
 * Constant script: $1 = directory, $2 = file. noclobber (`set -C`) makes `>` refuse a file that
 * is already there, like the local `wx`; umask 077 makes it 0600 from its first byte.
 */
const WRITE_SCRIPT = 'umask 077; set -C; mkdir -p -- "$1" && chmod 700 -- "$1" && cat > "$2"';

export interface RemoteLaunch {
  argv: string[];
  file: string;
  /** Deletes the file (the pane never started). */
  discard(): Promise<void>;
}

export async function remoteLaunchEnv(
  target: SshTarget,
  dir: string,
  env: Record<string, string>,
  argv: readonly string[],
  perl = '/usr/bin/perl',
): Promise<RemoteLaunch> {
  const file = `${dir}/env-${randomBytes(8).toString('hex')}`;
  const data = Object.entries(env).map(([k, v]) => `${k}=${v}`).join('\0');
  await runRemote(target, ['sh', '-c', WRITE_SCRIPT, 'sh', dir, file], data);
  return {
    argv: launcherArgv(perl, file, argv),
    file,
    discard: async () => {
      await runRemote(target, ['rm', '-f', '--', file]).catch(() => {});
    },
  };
}
