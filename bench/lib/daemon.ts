/**
 * A real daemon on a private home, driven two ways: the `hand` binary as a child process (what a
 * person or script pays, process start included) and the daemon socket from this process (to
 * steer workers without paying a process start per step). Cleanup stops the daemon, kills its
 * tmux server, and SIGKILLs any daemon that would not stop.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { call } from '../../cli/client.ts';
import { homePaths, type HomePaths } from '../../cli/home.ts';
import { alive, killIfAlive, onCleanup } from './cleanup.ts';
import { nowMs } from './stats.ts';
import { daemonLogExits, kernelLinesFor, tmuxServerPid } from './tmux-crash.ts';
import type { BenchWorld } from './world.ts';

export const HAND_BIN = fileURLToPath(new URL('../../bin/hand.js', import.meta.url));

export interface HandRun {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
  /** nowMs() when the child was spawned and when it exited. */
  startedAt: number;
  endedAt: number;
}

export interface StatusRow {
  id: string;
  stage: string;
  state: string;
  awaitingInput: boolean;
  live: boolean | null;
}

export interface DaemonWorld {
  home: string;
  paths: HomePaths;
  env: Record<string, string>;
  hand(args: string[], timeoutMs?: number): Promise<HandRun>;
  rpc<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  pid(): Promise<number>;
  dispatch(id: string, backend: string, env: Record<string, string>): Promise<void>;
  /** Notes the pid of the daemon's tmux server (call after a tmux dispatch), for crashEvidence(). */
  noteTmuxServer(): number | null;
  /** If a noted tmux server is gone: the kernel's lines about it and the daemon log's exit reasons. */
  crashEvidence(): string[];
  /** Resolves with nowMs() of the first pushed status row of `id` that `accept` takes. */
  watchUntil(id: string, what: string, accept: (row: StatusRow) => boolean, timeoutMs?: number): { done: Promise<number>; ready: Promise<void> };
}

export function runProcess(argv: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<HandRun> {
  const startedAt = nowMs();
  return new Promise((resolve) => {
    execFile(argv[0]!, argv.slice(1), { env, timeout: timeoutMs, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      const endedAt = nowMs();
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? Number((err as { code: number }).code) : 1) : 0;
      let json: unknown = null;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = null;
      }
      resolve({ code, stdout, stderr, json, startedAt, endedAt });
    });
  });
}

export async function makeDaemonWorld(world: BenchWorld, extraEnv: Record<string, string> = {}): Promise<DaemonWorld> {
  const home = join(world.root, 'state');
  const paths = homePaths(home);
  const env = { ...world.workerEnv(), ...extraEnv };
  const hand = (args: string[], timeoutMs?: number) => runProcess([process.execPath, HAND_BIN, '--home', home, ...args], env, timeoutMs);
  const rpc = <T,>(method: string, params: Record<string, unknown> = {}) => call<T>(paths, method, params, { autostart: false });
  // daemon.pid names the lock holder (persistence/home-lock.ts): the daemon to kill if stop fails
  const pidFile = join(home, 'daemon.pid');
  const pidOf = () => {
    try {
      return Number((JSON.parse(readFileSync(pidFile, 'utf8')) as { pid?: number }).pid);
    } catch {
      return NaN;
    }
  };

  const tmuxPids = new Set<number>();
  let prepareChain: Promise<unknown> = Promise.resolve();
  const crashEvidence = () => {
    const dead = [...tmuxPids].filter((p) => !alive(p));
    if (dead.length === 0) return [];
    const kernel = kernelLinesFor(dead);
    return [
      `tmux server ${dead.join(', ')} gone`,
      ...(kernel.length ? kernel.map((l) => `kernel: ${l.trim()}`) : ['kernel: no line names it (dmesg unreadable or no crash logged)']),
      ...daemonLogExits(paths.log).map((m) => `daemon.log: ${m}`),
    ];
  };
  onCleanup(`daemon on ${home}`, async () => {
    // The home (and its daemon.log) is removed next: say why a tmux server died while we can.
    for (const line of crashEvidence()) console.error(`[bench] ${line}`);
    const pid = pidOf();
    await hand(['daemon', 'stop'], 20_000);
    if (Number.isFinite(pid) && alive(pid)) killIfAlive(pid);
    if (existsSync(paths.tmuxSocket)) await new Promise<void>((r) => execFile('tmux', ['-S', paths.tmuxSocket, 'kill-server'], () => r()));
  });
  const started = await hand(['daemon', 'start', '--json']);
  if (started.code !== 0) throw new Error(`hand daemon start failed (${started.code}): ${started.stderr || started.stdout}`);
  const annexed = await hand(['annex', world.repo, '--name', 'bench', '--yolo', '--json']);
  if (annexed.code !== 0) throw new Error(`hand annex failed: ${annexed.stderr}`);

  const d: DaemonWorld = {
    home,
    paths,
    env,
    hand,
    rpc,
    async pid() {
      return (await rpc<{ pid: number }>('ping')).pid;
    },
    noteTmuxServer() {
      const pid = tmuxServerPid(paths.tmuxSocket);
      if (pid !== null) tmuxPids.add(pid);
      return pid;
    },
    crashEvidence,
    async dispatch(id, backend, workerEnv) {
      // One `dispatch` request at a time (it answers once the worktree and pane exist), the
      // settling in parallel: concurrent `git worktree add -b` on one repository race (git reads
      // another add's half-written .git/worktrees/<id>/commondir and fails: seen at 4 in flight).
      const turn = prepareChain.then(() => rpc('dispatch', { id, repo: world.repo, brief: world.brief(id), agent: 'mock', backend, stallMs: 20 * 60_000, env: workerEnv }));
      prepareChain = turn.catch(() => {});
      await turn;
      const r = await rpc<{ reason: string }>('wait', { id, until: 'settled', timeoutMs: 60_000 });
      if (r.reason !== 'settled') throw new Error(`worker ${id} did not settle after dispatch: ${JSON.stringify(r)}`);
    },
    watchUntil(id, what, accept, timeoutMs = 30_000) {
      const abort = new AbortController();
      let markReady: () => void = () => {};
      const ready = new Promise<void>((r) => (markReady = r));
      const done = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => {
          abort.abort();
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${id} to be ${what}`));
        }, timeoutMs);
        call(paths, 'watch', { timeoutMs }, {
          autostart: false,
          signal: abort.signal,
          onProgress: (p) => {
            const row = p as StatusRow;
            // watch first replays every current row: the first one for our id means we are live
            if (row.id === id) markReady();
            if (row.id === id && accept(row)) {
              const t = nowMs();
              clearTimeout(timer);
              abort.abort();
              resolve(t);
            }
          },
        }).catch(() => {});
      });
      return { done, ready };
    },
  };
  return d;
}

/** CPU time (ms) and resident set (bytes) of a process, from /proc. */
export function procUsage(pid: number): { cpuMs: number; rssBytes: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // fields after the command name (which may contain spaces) start after the last ')'
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
  const hz = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  return { cpuMs: (ticks * 1000) / hz, rssBytes: rssKb * 1024 };
}

export function spawnDetached(argv: string[], env: Record<string, string>): number {
  const child = spawn(argv[0]!, argv.slice(1), { env, stdio: 'ignore' });
  return child.pid ?? -1;
}
