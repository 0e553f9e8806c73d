/**
 * A real daemon on a private home, driven two ways: the `hand` binary as a child process (what a
 * person or script pays, process start included) and the daemon socket from this process (to
 * steer workers without paying a process start per step). Cleanup is the tests' teardown
 * (stopInstallation): it stops the daemon, SIGKILLs one that would not stop, kills its tmux server.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, clientOf, type CallArgs } from '../../cli/client.ts';
import type { MethodName, ResultOf } from '../../contract/methods.ts';
import type { BackendName } from '../../contract/vocabulary.ts';
import { homePaths, type HomePaths } from '../../contract/home.ts';
import type { WorkerView } from '../../actors/worker-view.ts';
import { handRunner, stopInstallation, type HandRunner } from '../../tests/helpers/hand-process.ts';
import { alive, onCleanup } from './cleanup.ts';
import { nowMs } from './stats.ts';
import { daemonLogExits, kernelLinesFor, tmuxServerPid } from './tmux-crash.ts';
import type { BenchWorld } from './world.ts';

// The `hand` runner is the tests' (tests/helpers/hand-process.ts): one implementation, timed the
// same way (spawn to exit, nothing else inside the two clock readings).
export { HAND_BIN, runProcess, type HandRun } from '../../tests/helpers/hand-process.ts';

/** The fields of a pushed `watch` row the bench waits on. */
export type StatusRow = Pick<WorkerView, 'id' | 'stage' | 'condition' | 'state' | 'awaitingInput' | 'live'>;

export interface DaemonWorld {
  home: string;
  paths: HomePaths;
  env: Record<string, string>;
  hand: HandRunner;
  rpc<M extends MethodName>(method: M, ...args: CallArgs<M>): Promise<ResultOf<M>>;
  pid(): Promise<number>;
  dispatch(id: string, backend: BackendName, env: Record<string, string>): Promise<void>;
  /** Notes the pid of the daemon's tmux server (call after a tmux dispatch), for crashEvidence(). */
  noteTmuxServer(): number | null;
  /** If a noted tmux server is gone: the kernel's lines about it and the daemon log's exit reasons. */
  crashEvidence(): string[];
  /** Resolves with nowMs() of the first pushed status row of `id` that `accept` takes. */
  watchUntil(id: string, what: string, accept: (row: StatusRow) => boolean, timeoutMs?: number): { done: Promise<number>; ready: Promise<void> };
}

export async function makeDaemonWorld(world: BenchWorld, extraEnv: Record<string, string> = {}): Promise<DaemonWorld> {
  const home = join(world.root, 'state');
  const paths = homePaths(home);
  const env = { ...world.workerEnv(), ...extraEnv };
  const hand = handRunner(home, env, 60_000);
  // The daemon is started once (hand daemon start): a call never starts another.
  const rpc = clientOf(paths, { autostart: false });

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
    await stopInstallation(hand, home, 20_000);
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
      return (await rpc('ping')).pid;
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
      const r = await rpc('wait', { id, until: 'settled', timeoutMs: 60_000 });
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

/** Clock ticks per second of /proc's CPU times, asked once. */
export const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU time (ms) and resident set (bytes) of a process, from /proc. */
export function procUsage(pid: number): { cpuMs: number; rssBytes: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // fields after the command name (which may contain spaces) start after the last ')'
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  return { cpuMs: (ticks * 1000) / CLK_TCK, rssBytes: rssKb * 1024 };
}

/** The share of a core (%) a process used over the next `ms`. */
export async function cpuShare(pid: number, ms: number): Promise<number> {
  const a = procUsage(pid);
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  return ((procUsage(pid).cpuMs - a.cpuMs) / (performance.now() - t0)) * 100;
}

export function spawnDetached(argv: string[], env: Record<string, string>): number {
  const child = spawn(argv[0]!, argv.slice(1), { env, stdio: 'ignore' });
  return child.pid ?? -1;
}
