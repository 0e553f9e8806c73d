/**
 * `hand` in process (issue 20): the same commander program the binary runs (cli/program.ts),
 * with the call's own streams, environment and exit code (cli/io.ts), and a daemon started in
 * this process when nothing answers on the home's socket — the same service `hand daemon run`
 * runs (actors/daemon/main.ts: its lock, its log, its socket), without the Node start. A call
 * costs a socket round trip instead of two Node start-ups (the CLI's, and the daemon's on the
 * first call). What only the binary shows — its exit, auto-start as a process and the start
 * race, signals, a daemon killed with SIGKILL — stays with the binary runner (hand-process.ts).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homePaths, type HomePaths } from '../../contract/home.ts';
import { runCli } from '../../cli/program.ts';
import type { CliIo, CliStream } from '../../cli/io.ts';
import { startDaemonService, type DaemonService } from '../../actors/daemon/main.ts';
import type { HandRun, HandRunner } from './hand-process.ts';
import { readLockHolder } from '../../persistence/lock-holder.ts';
import { isProcessAlive, killIfAlive } from './processes.ts';

const clock = (): number => performance.timeOrigin + performance.now();

export interface InProcessHand {
  hand: HandRunner;
  /** The daemon service running for the home now, if any. */
  service(): DaemonService | null;
  /** Stops the daemon (as `hand daemon stop` would, if it still runs) and the home's tmux server. */
  cleanup(): Promise<void>;
}

function collector(): { stream: CliStream; text: () => string } {
  let text = '';
  return { stream: { write: (s: string) => ((text += s), true), isTTY: false }, text: () => text };
}

/**
 * Runs `hand --home <home> …` in process with `env` (plus a call's own `env`) and the call's or
 * the default bound. `daemonProcess`: the daemon is the real `hand daemon run` process, started
 * by the CLI's own autostart (for tests that SIGKILL it or read what only its start writes); the
 * calls still run in process.
 */
export function inProcessHand(home: string, env: Record<string, string>, defaultTimeoutMs: number, opts: { daemonProcess?: boolean } = {}): InProcessHand {
  let current: DaemonService | null = null;
  let last: DaemonService | null = null;
  let starting: Promise<void> | null = null;
  const startDaemon = (paths: HomePaths, daemonEnv: NodeJS.ProcessEnv): Promise<void> => {
    // Calls that overlap share one start, as racing binaries share the winner of the lock; a
    // daemon asked to stop has answered before it let go of the home, so the start waits for it
    // (the binary's start waits for the old process to leave the lock the same way).
    const previous = last;
    starting ??= (previous ? previous.stopped : Promise.resolve())
      .then(() => startDaemonService(paths, { env: daemonEnv, pid: process.pid }))
      .then((s) => {
        last = s;
        current = s;
        void s.stopped.then(() => {
          if (current === s) current = null;
        });
      })
      .finally(() => {
        starting = null;
      });
    return starting;
  };
  const hand: HandRunner = async (args, callOpts = {}) => {
    const out = collector();
    const err = collector();
    const io: CliIo = { stdout: out.stream, stderr: err.stream, env: callOpts.env ? { ...env, ...callOpts.env } : env, ...(opts.daemonProcess ? {} : { startDaemon }) };
    const timeoutMs = callOpts.timeoutMs ?? defaultTimeoutMs;
    const startedAt = clock();
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([
      runCli(['node', 'hand', '--home', home, ...args], io),
      new Promise<number>((r) => {
        timer = setTimeout(() => {
          err.stream.write(`(in-process hand ${args.join(' ')} did not finish within ${timeoutMs} ms)\n`);
          r(1);
        }, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    const endedAt = clock();
    const stdout = out.text();
    let json: unknown = null;
    try {
      json = JSON.parse(stdout);
    } catch {
      json = null;
    }
    const run: HandRun = { code, stdout, stderr: err.text(), json, startedAt, endedAt };
    return run;
  };
  return {
    hand,
    service: () => current,
    async cleanup() {
      await starting?.catch(() => undefined);
      await (current as DaemonService | null)?.shutdown('test cleanup');
      // A daemon process is asked to stop first, as `hand daemon stop` does.
      if (opts.daemonProcess) await hand(['daemon', 'stop'], { timeoutMs: 15_000 });
      // A binary the test ran against this home (hand mcp, a hook) may have started a daemon
      // process of its own while none ran here: it goes too, and so does anything still running
      // with this (private, temp) home in its arguments.
      const holder = readLockHolder(home);
      if (holder && holder.pid !== process.pid && isProcessAlive(holder.pid)) killIfAlive(holder.pid);
      await new Promise<void>((r) => execFile('pkill', ['-f', `--home ${home}`], () => r()));
      // The private tmux server outlives a daemon with live workers by design; a test leaves none.
      const { tmuxSocket } = homePaths(home);
      if (existsSync(tmuxSocket)) await new Promise<void>((r) => execFile('tmux', ['-S', tmuxSocket, 'kill-server'], () => r()));
    },
  };
}
