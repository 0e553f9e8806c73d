/**
 * A tmux host on "another machine" for tests: the real sshd and second account of sshd.ts, the
 * mock agent's bundle copied where that account can read it (its only imports are node: modules
 * and its own chunk, so dist/ and the system's node are all it needs), and a TerminalHost
 * driving that account's own tmux server over one multiplexed ssh connection.
 */
import { chmodSync, chownSync, cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SshTarget } from '../../io/ssh/ssh-command.ts';
import { createTmuxHost, type TmuxHost } from '../../io/terminal/tmux/tmux-host.ts';
import { killIfAlive, outlastOrKill, processTable } from '../helpers/processes.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { ROOT } from '../terminal/mock-worker.ts';
import { startTestSshd, type TestSshd } from './sshd.ts';

/** The node the far-side account runs: the system's, which every account can execute. */
export const FAR_NODE = '/usr/bin/node';

/**
 * The mock agent's bundle in the far account's HOME, and `kh-mock-agent` on its PATH
 * (`~/.local/bin`, where a far worker's PATH looks first): what a far host needs to run
 * `--agent mock` (daemon/hosts/far-ports.ts). Returns the program's argv for a direct start.
 */
export function installFarMock(sshd: TestSshd): string[] {
  const mockDir = join(sshd.home, 'kh-mock');
  cpSync(join(ROOT, 'dist'), join(mockDir, 'dist'), { recursive: true });
  writeFileSync(join(mockDir, 'package.json'), '{"type":"module"}\n');
  chmodSync(mockDir, 0o755);
  const main = join(mockDir, 'dist', 'mock-agent', 'main.js');
  const bin = join(sshd.home, '.local', 'bin');
  mkdirSync(bin, { recursive: true, mode: 0o755 });
  writeFileSync(join(bin, 'kh-mock-agent'), `#!/bin/sh\nexec ${FAR_NODE} '${main}' "$@"\n`, { mode: 0o755 });
  for (const dir of [join(sshd.home, '.local'), bin, join(bin, 'kh-mock-agent')]) chownSync(dir, sshd.uid, sshd.gid);
  return [FAR_NODE, main];
}

export interface FarSideTmux {
  sshd: TestSshd;
  host: TmuxHost;
  target: SshTarget;
  /** The remote state directory (socket and launch files live under it). */
  stateDir: string;
  /** Where the ssh master's socket lives (our local state directory in a real daemon). */
  localDir: string;
  mockProgram: string[];
  /** Makes a (local temp) directory the far-side account's own, for a worker's cwd. */
  ownDir(path: string): void;
  cleanup(): Promise<void>;
}

export async function startFarSideTmux(options: { sshBin?: string; onNotice?: (message: string) => void } = {}): Promise<FarSideTmux> {
  const sshd = await startTestSshd();
  const local = makeTempDir('ssh-state');
  try {
    const mockProgram = installFarMock(sshd);
    const stateDir = join(sshd.home, '.kingshand');
    const target: SshTarget = { ...sshd.target(local.path), ...(options.sshBin && { sshBin: options.sshBin }) };
    const host = createTmuxHost({
      socketPath: join(stateDir, 'tmux', 'tmux.sock'),
      ssh: target,
      ...(options.onNotice && { onNotice: (message: string) => options.onNotice!(message) }),
    });
    await host.ensureServer();
    return {
      sshd,
      host,
      target,
      stateDir,
      localDir: local.path,
      mockProgram,
      ownDir: (path) => chownSync(path, sshd.uid, sshd.gid),
      async cleanup() {
        try {
          // A fault test may have stopped sshd: the far server is taken down through it.
          await sshd.startServer();
          await host.killServer();
        } finally {
          await sshd.stop();
          await endMasters(local.path);
          local.cleanup();
        }
      },
    };
  } catch (err) {
    await sshd.stop();
    await endMasters(local.path);
    local.cleanup();
    throw err;
  }
}

/**
 * Ends any ssh master still serving a control socket under `controlDir` (ssh titles it
 * `ssh: <socket> [mux]`, and it persists ten minutes idle). The host asks its master to leave when
 * it is killed, and stopping sshd ends the connections of its account; still, one master outlived
 * both in a full run (reported by the run's leftover check; not reproduced since — a connection
 * sshd accepted as it stopped, before it belonged to the account, is one way). This harness
 * opened that connection, so it ends it.
 */
async function endMasters(controlDir: string): Promise<void> {
  const own = `ssh: ${controlDir}/`;
  const pids = processTable((r) => r.comm === 'ssh')
    .filter((r) => r.cmdline.startsWith(own) && r.cmdline.trimEnd().endsWith('[mux]'))
    .map((r) => r.pid);
  for (const pid of pids) killIfAlive(pid, 'SIGTERM');
  await outlastOrKill(pids, `the ssh masters under ${controlDir} to exit`, 5_000);
}
