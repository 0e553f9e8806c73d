/**
 * `hand` in process (issue 20): the same commander program the binary runs (cli/program.ts),
 * with the call's own streams, environment and exit code (cli/io.ts), and a daemon started in
 * this process when nothing answers on the home's socket — the same service `hand daemon run`
 * runs (daemon/main.ts: its lock, its log, its socket), without the Node start. A call
 * costs a socket round trip instead of two Node start-ups (the CLI's, and the daemon's on the
 * first call). What only the binary shows — its exit, auto-start as a process and the start
 * race, signals, a daemon killed with SIGKILL — stays with the binary runner (hand-process.ts).
 */
import type { HomePaths } from '../../contract/home.ts';
import { runCli } from '../../cli/program.ts';
import type { CliIo, CliStream } from '../../cli/io.ts';
import { startDaemonService, type DaemonService } from '../../daemon/main.ts';
import { clock, handRun, stopInstallation, type HandRunner } from './hand-process.ts';

export interface InProcessHand {
  hand: HandRunner;
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
    return handRun(code, out.text(), err.text(), startedAt, clock());
  };
  return {
    hand,
    async cleanup() {
      await starting?.catch(() => undefined);
      // A service in this process shuts down here (a stopped one says so at once); then, as for
      // the binary: `hand daemon stop` for a daemon process (ours, or one a binary the test ran —
      // hand mcp, a hook — started), anything still running with this home, its tmux server.
      await last?.shutdown('test cleanup');
      await stopInstallation(hand, home, 15_000);
    },
  };
}
