/**
 * What a `hand` run reads and writes outside its arguments: its output streams, its environment,
 * its exit code, and how it starts a daemon that is not running. The binary runs with the
 * process's own (cli/main.ts); a test runs the same program in process with its own (issue 20:
 * a CLI call then costs a socket round trip, not a Node start). The run's IO is carried by an
 * AsyncLocalStorage, so calls that overlap in one process (a `wait` beside a `send`) each keep
 * theirs, and no command reads `process.stdout`, `process.env` or `process.exitCode` itself.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { HomePaths } from '../contract/home.ts';

/** The part of a stream the CLI uses. */
export interface CliStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface CliIo {
  stdout: CliStream;
  stderr: CliStream;
  env: NodeJS.ProcessEnv;
  /**
   * Starts the daemon of `paths` when nothing answers on its socket (autostart). Default: the
   * `hand daemon run` process (cli/client.ts). Resolves once its socket accepts connections.
   */
  startDaemon?: (paths: HomePaths, env: NodeJS.ProcessEnv) => Promise<void>;
}

interface Run {
  io: CliIo;
  exitCode: number | undefined;
}

const current = new AsyncLocalStorage<Run>();

export const processIo: CliIo = {
  get stdout() {
    return process.stdout;
  },
  get stderr() {
    return process.stderr;
  },
  get env() {
    return process.env;
  },
};

/** Runs `fn` with `io` as the run's IO; returns its result and the exit code a command set. */
export async function withCliIo<T>(io: CliIo, fn: () => Promise<T>): Promise<{ value: T; exitCode: number | undefined }> {
  if (io === processIo && current.getStore() === undefined) {
    // The process's own run has nothing to tell apart, and AsyncLocalStorage.run switches async
    // hooks on for the life of the process: `hand daemon run` paid them on every promise and
    // timer of the daemon (a tenth of its time with workers streaming, issue 26).
    const value = await fn();
    return { value, exitCode: typeof process.exitCode === 'number' ? process.exitCode : undefined };
  }
  const run: Run = { io, exitCode: undefined };
  const value = await current.run(run, fn);
  return { value, exitCode: run.exitCode };
}

/**
 * Runs `fn` outside any run: a daemon started in process by a run must not carry that run's IO
 * in every callback it ever makes.
 */
export function outsideCliRun<T>(fn: () => T): T {
  return current.exit(fn);
}

export function cliIo(): CliIo {
  return current.getStore()?.io ?? processIo;
}

export const cliOut = (): CliStream => cliIo().stdout;
export const cliErr = (): CliStream => cliIo().stderr;
export const cliEnv = (): NodeJS.ProcessEnv => cliIo().env;

/** A command's verdict when it is not an error (a `wait` whose condition was not met: 1). */
export function setExitCode(code: number): void {
  const run = current.getStore();
  if (run) run.exitCode = code;
  else process.exitCode = code;
}
