/**
 * The daemon in process (issue 20): the service `hand daemon run` runs (startDaemonService: lock,
 * log, socket) on a temp state directory with the real parts
 * — SQLite file, git, a private tmux server, node-pty, the mock agent — served on its own socket
 * as the binary serves it, and called through the same client the CLI uses. No Node
 * starts per call: a method-level test pays a socket round trip, not a process.
 *
 * What only the binary shows (argument parsing, exit codes, auto-start and its lock, the bundle)
 * stays in the binary tests (tests/cli, tests/helpers/cli-world.ts).
 */
import { afterEach, expect } from 'vitest';
import { join } from 'node:path';
import { endTerminalServer } from './processes.ts';
import { type HomePaths } from '../../contract/home.ts';
import { ensureHome } from '../../io/fs/ensure-home.ts';
import type { Daemon } from '../../daemon/create-daemon.ts';
import { startDaemonService } from '../../daemon/main.ts';
import { callUnchecked } from '../../cli/client.ts';
import { makeTempDir } from './temp.ts';
import { seedWorld, WORKER_WORLD_ENV, worldEnv, writeBrief } from './hand-world.ts';

export interface DaemonWorld {
  root: string;
  home: string;
  paths: HomePaths;
  repo: string;
  agentHome: string;
  /** The environment a person's `hand` call would carry (HOME = the worker HOME). */
  env: Record<string, string>;
  daemon: Daemon;
  /** One request over the socket; resolves with the result, rejects with the typed refusal. */
  call<T = any>(method: string, params?: Record<string, unknown>, opts?: { onProgress?: (p: unknown) => void }): Promise<T>;
  /** `call`, expecting a refusal: returns it (fails the test when the call succeeded). */
  refusal(method: string, params?: Record<string, unknown>): Promise<{ code: string; message: string; exitCode: number; details: Record<string, unknown> }>;
  /** Dispatch on the mock agent with the world's env; `extra` overrides. */
  dispatch(id: string, task: string, extra?: Record<string, unknown>): Promise<any>;
  brief(name: string, task: string): string;
  /** Closes the daemon as `hand daemon stop` would (tmux panes of live workers survive). */
  stop(): Promise<void>;
  cleanup(): Promise<void>;
}

export async function makeDaemonWorld(label: string, opts: { env?: Record<string, string>; daemonEnv?: Record<string, string>; beforeHome?: (home: string) => void } = {}): Promise<DaemonWorld> {
  const tmp = makeTempDir(label);
  const root = tmp.path;
  const home = join(root, 'state');
  // A test that needs the state directory on its own file system (a small tmpfs) mounts it here.
  opts.beforeHome?.(home);
  const paths = ensureHome(home);
  const { repo, agentHome } = seedWorld(root, '# test repo\n');
  const env = worldEnv(agentHome, { ...WORKER_WORLD_ENV, ...opts.env });
  // The same service `hand daemon run` runs (lock, log, socket), without its process.
  const service = await startDaemonService(paths, { env: { ...env, ...opts.daemonEnv }, pid: process.pid });
  const daemon = service.daemon;
  const stop = () => service.shutdown('test');
  const world: DaemonWorld = {
    root, home, paths, repo, agentHome, env, daemon,
    // Unchecked on purpose: method-level tests send wrong types and junk to the daemon's edge.
    call: async <T,>(method: string, params: Record<string, unknown> = {}, o: { onProgress?: (p: unknown) => void } = {}): Promise<T> => (await callUnchecked(paths, method, params, { autostart: false, ...(o.onProgress ? { onProgress: o.onProgress } : {}) })) as T,
    async refusal(method, params = {}) {
      try {
        const r = await world.call(method, params);
        expect.fail(`${method} was expected to be refused but answered ${JSON.stringify(r).slice(0, 400)}`);
      } catch (err) {
        const e = err as { code: string; message: string; exitCode: number; details: Record<string, unknown> };
        if (typeof e.code !== 'string') throw err;
        return { code: e.code, message: e.message, exitCode: e.exitCode, details: e.details };
      }
      throw new Error('unreachable');
    },
    dispatch: (id, task, extra = {}) =>
      world.call('dispatch', { id, repo, brief: writeBrief(root, id, task), agent: 'mock', backend: 'tmux', readPaths: [], env, ...extra }),
    brief: (name, task) => writeBrief(root, name, task),
    stop,
    async cleanup() {
      await stop();
      // The private tmux server outlives a daemon with live workers by design; a test leaves none.
      await endTerminalServer(paths.tmuxSocket);
      tmp.cleanup();
    },
  };
  return world;
}

/** Annexes the world's repo (yolo), dispatches `id` on the mock agent with `task`, and waits (30 s bound) until it settles. */
export async function settledMockWorker(w: DaemonWorld, id: string, task: string): Promise<void> {
  await w.call('annex', { repo: w.repo, yolo: true });
  await w.dispatch(id, task);
  await w.call('wait', { id, until: 'settled', timeoutMs: 30_000 });
}

/** Registers the teardown of the world a test makes; call once at the top of a test file. */
/** What a world is made with; `annexYolo`: its repository is annexed with --yolo before the test sees it (no gate waits on a person). */
export type WorldOptions = Parameters<typeof makeDaemonWorld>[1] & { annexYolo?: boolean };

export function useDaemonWorld(): (label: string, opts?: WorldOptions) => Promise<DaemonWorld> {
  let worlds: DaemonWorld[] = [];
  afterEach(async () => {
    for (const w of worlds) await w.cleanup();
    worlds = [];
  });
  return async (label, opts) => {
    const w = await makeDaemonWorld(label, opts);
    worlds.push(w);
    if (opts?.annexYolo) await w.call('annex', { repo: w.repo, yolo: true });
    return w;
  };
}
