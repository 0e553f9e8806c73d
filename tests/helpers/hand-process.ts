/**
 * The real `hand` binary as a child process against a private state directory, and the teardown
 * of that installation. One implementation for the tests (tests/cli, tests/claude-e2e) and the
 * benchmarks (bench/lib/daemon.ts), which time `hand` from spawn to exit: the two clock readings
 * bracket execFile and nothing else, so keep any new work outside them.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { homePaths } from '../../contract/home.ts';
import { readLockHolder } from '../../persistence/home-lock.ts';
import { endTerminalServer, isProcessAlive, killIfAlive, processTable } from './processes.ts';

export const HAND_BIN = fileURLToPath(new URL('../../bin/hand.js', import.meta.url));

export interface HandRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON, or null when it is not JSON. */
  json: any;
  /** Epoch ms (sub-ms resolution) when the child was spawned and when it exited. */
  startedAt: number;
  endedAt: number;
}

export type HandRunner = (args: string[], opts?: { timeoutMs?: number; env?: Record<string, string> }) => Promise<HandRun>;

/**
 * The clock of the mock agent's event log (mock-agent/event-log.ts) and of the bench's
 * nowMs(): a child's exit time is compared with the moment an agent logged an event.
 */
export const clock = (): number => performance.timeOrigin + performance.now();

/** A finished `hand` run: stdout parsed as JSON when it is JSON. */
export function handRun(code: number, stdout: string, stderr: string, startedAt: number, endedAt: number): HandRun {
  let json: unknown = null;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = null;
  }
  return { code, stdout, stderr, json, startedAt, endedAt };
}

/** Runs `argv` (never a shell string) with `env`; resolves with its exit code and output, never rejects. */
export function runProcess(argv: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<HandRun> {
  const startedAt = clock();
  return new Promise((resolve) => {
    execFile(argv[0]!, argv.slice(1), { env, timeout: timeoutMs, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      const endedAt = clock();
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? Number((err as { code: number }).code) : 1) : 0;
      resolve(handRun(code, stdout, stderr, startedAt, endedAt));
    });
  });
}

/** Runs `hand --home <home> …` with `env` (plus a call's own `env`) and the call's or the default bound. */
export function handRunner(home: string, env: Record<string, string>, defaultTimeoutMs: number): HandRunner {
  return (args, opts = {}) =>
    runProcess([process.execPath, HAND_BIN, '--home', home, ...args], opts.env ? { ...env, ...opts.env } : env, opts.timeoutMs ?? defaultTimeoutMs);
}

/** This process's environment without HAND_HOME: a run's state directory is its `--home` alone. */
export function envWithoutHandHome(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'HAND_HOME') env[k] = v;
  return env;
}

/** `hand daemon start --json` against the runner's home; the daemon's pid. A failed start throws with what hand said. */
export async function startDaemon(hand: HandRunner): Promise<number> {
  const r = await hand(['daemon', 'start', '--json']);
  if (r.code !== 0) throw new Error(`hand daemon start exited ${r.code}: ${r.stderr}${r.stdout}`);
  return r.json.pid as number;
}

/**
 * Stops the daemon of `home` (asking first), then ends what would outlive the caller: a daemon
 * that did not stop, the private tmux server (its panes outlive the daemon by design), and any
 * process still running against this home.
 */
export async function stopInstallation(hand: HandRunner, home: string, daemonStopTimeoutMs: number): Promise<void> {
  // daemon.pid names the lock holder (persistence/home-lock.ts); a clean stop removes it, so read it first
  const holder = readLockHolder(home);
  const wasAlive = holder !== null && isProcessAlive(holder.pid);
  await hand(['daemon', 'stop'], { timeoutMs: daemonStopTimeoutMs });
  // alive before and after: a stale pid file of a daemon killed earlier must not aim at a reused pid
  // (never the caller itself: a daemon run in this process is shut down by its own world first)
  if (wasAlive && holder.pid !== process.pid && isProcessAlive(holder.pid)) killIfAlive(holder.pid);
  const { tmuxSocket } = homePaths(home);
  if (existsSync(tmuxSocket)) await endTerminalServer(tmuxSocket);
  // a daemon killed mid-start never wrote daemon.pid; its argv still names this (private, temp) home
  const named = ` --home ${home} `;
  for (const r of processTable(() => true)) if (r.pid !== process.pid && ` ${r.cmdline} `.includes(named)) killIfAlive(r.pid, 'SIGTERM');
}
