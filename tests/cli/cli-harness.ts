/**
 * Drives `hand` against a private state directory, so each test has its own daemon, database
 * and tmux server, and cleans all of them up. By default the program and its daemon run in this
 * process (tests/helpers/hand-in-process.ts: the same commander program and daemon service, no
 * Node start per call); `{ binary: true }` runs the real binary as a child process, for what only
 * the binary shows (its exit, auto-start as a process, signals, SIGKILL). The runner, the
 * teardown and the world's files live in tests/helpers (shared with the benchmarks); this file
 * keeps the CLI tests' world and re-exports them for the tests that import from here.
 */
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { expect } from 'vitest';
import { makeTempDir, waitFor } from '../helpers/temp.ts';
import { handRunner, stopInstallation, type HandRun, type HandRunner } from '../helpers/hand-process.ts';
import { seedWorld, WORKER_WORLD_ENV, worldEnv, writeBrief } from '../helpers/hand-world.ts';
import { inProcessHand } from '../helpers/hand-in-process.ts';

export { HAND_BIN, handRunner, stopInstallation, type HandRunner } from '../helpers/hand-process.ts';
export { writeBrief } from '../helpers/hand-world.ts';
export type RunResult = HandRun;

export interface CliWorld {
  root: string;
  home: string;
  repo: string;
  agentHome: string;
  env: Record<string, string>;
  hand: HandRunner;
  brief(name: string, task: string): string;
  cleanup(): Promise<void>;
}

export interface CliWorldOptions {
  /** Run the real binary (a child process per call, a daemon process) instead of in process. */
  binary?: boolean;
  /** Calls in process, the daemon as the real `hand daemon run` process (SIGKILL, its start's files). */
  daemonProcess?: boolean;
  /** Runs before anything uses the state directory (a test mounts a small file system there). */
  beforeHome?: (home: string) => void;
  /** More variables for every call and the daemon (HAND_SANDBOX=off: a daemon without kingshand's sandbox). */
  env?: Record<string, string>;
}

/** `daemon stop` answers before the daemon has finished (its last backup, the lock): it waits until the daemon has let go of its state directory. */
export async function stopDaemonAndWait(w: CliWorld): Promise<void> {
  expect((await w.hand(['daemon', 'stop'])).code).toBe(0);
  await waitFor(() => !existsSync(join(w.home, 'daemon.pid')), { what: 'the stopped daemon to let go of its state directory' });
}

export async function makeCliWorld(label: string, opts: CliWorldOptions = {}): Promise<CliWorld> {
  const tmp = makeTempDir(label);
  const root = tmp.path;
  const home = join(root, 'state');
  const { repo, agentHome } = seedWorld(root, '# test repo\n');
  const env = worldEnv(agentHome, { ...WORKER_WORLD_ENV, ...opts.env });
  opts.beforeHome?.(home);
  if (opts.binary) {
    const hand = handRunner(home, env, 60_000);
    return {
      root, home, repo, agentHome, env, hand,
      brief: (name, task) => writeBrief(root, name, task),
      async cleanup() {
        await stopInstallation(hand, home, 15_000);
        tmp.cleanup();
      },
    };
  }
  const inProcess = inProcessHand(home, env, 60_000, { daemonProcess: opts.daemonProcess === true });
  return {
    root, home, repo, agentHome, env, hand: inProcess.hand,
    brief: (name, task) => writeBrief(root, name, task),
    async cleanup() {
      await inProcess.cleanup();
      tmp.cleanup();
    },
  };
}
