/**
 * Issue 28's figures: workers on a host reached over ssh against workers on this machine, in
 * the same run and the same daemon (createDaemon in process, wired as `hand daemon run` wires it).
 * The far host is the tests' real sshd on 127.0.0.1 with a second local account
 * (tests/harness/sshd.ts), so the ssh cost is real but the network is loopback: on a remote
 * machine add the round-trip time. Both sides share one clock, so "the agent drew it" → "the
 * actor knew it" is measured the same way for both.
 *
 * 1. Blocked detection, local tmux vs far tmux: the mock is sent `MODE:ask`, logs `menu-drawn`,
 *    and the first view with condition `blocked` is timed; then settled after the Enter.
 * 2. CPU per far streaming worker: N far workers on `MODE:hang` (the spinner redraws ~10×/s) for
 *    a window; the daemon's CPU is this process's (the bench only sleeps meanwhile) and the ssh
 *    clients' (master and control client, from /proc) is counted beside it, each minus the same
 *    window with one idle far worker, divided by N.
 */
import { chmodSync, chownSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createDaemon, type Daemon } from '../daemon/create-daemon.ts';
import { homePaths } from '../contract/home.ts';
import type { CallContext } from '../contract/protocol.ts';
import type { MethodName, ParamsOf, ResultOf } from '../contract/methods.ts';
import type { WorkerView } from '../actors/fleet-host.ts';
import { conditionOf } from '../actors/wait-report.ts';
import { startTestSshd } from '../tests/harness/sshd.ts';
import { installFarMock } from '../tests/harness/far-side-tmux.ts';
import { makeTestRepo } from '../tests/helpers/git-repo.ts';
import type { BenchResult } from './types.ts';
import { makeWorld } from './lib/world.ts';
import { onCleanup } from './lib/cleanup.ts';
import { procUsage } from './lib/daemon.ts';
import { awaitEvent } from './lib/mock-events.ts';
import { nowMs, round, single, summarise } from './lib/stats.ts';

export interface FarHostOptions {
  trials: number;
  /** Far streaming workers for the CPU figure. */
  streaming: number;
  cpuWindowMs: number;
  log?: (msg: string) => void;
}

const noCtx = (): CallContext => ({ progress: () => {}, signal: new AbortController().signal });

/** Resolves with nowMs() at the first view of `id` that `accept` takes (armed before the action). */
function viewWhen(d: Daemon, id: string, what: string, accept: (v: WorkerView) => boolean, timeoutMs = 30_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`${id}: no ${what} view within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = d.fleet.subscribe((v) => {
      if (v.id !== id || !accept(v)) return;
      clearTimeout(timer);
      off();
      resolve(nowMs());
    });
  });
}

/** CPU ms of the ssh clients under `sshDir` (the master and the channels it carries), from /proc. */
function sshCpuMs(sshDir: string): number {
  const ps = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  let total = 0;
  for (const line of ps.split('\n')) {
    if (!line.includes(sshDir) || !/\bssh\b/.test(line)) continue;
    try {
      total += procUsage(Number(line.trim().split(/\s+/)[0])).cpuMs;
    } catch {
      // ended meanwhile
    }
  }
  return total;
}

export async function run(opts: FarHostOptions): Promise<BenchResult[]> {
  const log = opts.log ?? (() => {});
  const world = makeWorld('far');
  const sshd = await startTestSshd();
  onCleanup('sshd and its account', () => sshd.stop());
  installFarMock(sshd);
  const farRepo = join(sshd.home, 'src', 'bench');
  makeTestRepo(farRepo, '# bench repo, far side\n');
  execFileSync('chown', ['-R', `${sshd.uid}:${sshd.gid}`, join(sshd.home, 'src')]);
  // The far workers' event logs: written by the far account, read here.
  const farEvents = join(sshd.home, 'events');
  mkdirSync(farEvents, { mode: 0o755 });
  chownSync(farEvents, sshd.uid, sshd.gid);
  chmodSync(farEvents, 0o755);

  const home = join(world.root, 'state');
  const paths = homePaths(home);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const daemon = await createDaemon({ paths, env: world.workerEnv(), pid: process.pid, log: () => {}, requestShutdown: () => {} });
  onCleanup('in-process daemon (far bench)', async () => {
    for (const v of daemon.fleet.views()) if (v.condition !== 'gone') await daemon.fleet.stop(v.id, { timeoutMs: 10_000 }).catch(() => {});
    await daemon.close();
  });
  const call = <M extends MethodName>(m: M, p: ParamsOf<M>): Promise<ResultOf<M>> => (daemon.methods[m] as (p: ParamsOf<M>, c: CallContext) => Promise<ResultOf<M>>)(p, noCtx());

  await call('host.add', { name: 'far', destination: `${sshd.user}@127.0.0.1`, port: sshd.port, identity: sshd.identityFile, knownHosts: sshd.knownHostsFile });
  await call('host.check', { name: 'far' });
  await call('annex', { repo: world.repo, name: 'bench', yolo: true, permissions: 'edits' });
  await call('project.host', { name: 'bench', host: 'far', path: farRepo });
  const dispatch = async (id: string, host: string, env: Record<string, string>) => {
    const settled = viewWhen(daemon, id, 'settled', (v) => conditionOf(v) === 'settled');
    await call('dispatch', { id, repo: world.repo, brief: world.brief(id), agent: 'mock', host, env: world.workerEnv(env), stallMs: 20 * 60_000 });
    await settled;
  };

  // 1. Blocked and settled detection, local and far, the same trials in the same daemon.
  const results: BenchResult[] = [];
  for (const host of ['local', 'far']) {
    const id = `det-${host}`;
    const events = host === 'far' ? join(farEvents, `${id}.jsonl`) : world.eventLog(id);
    await dispatch(id, host, { KH_MOCK_EVENT_LOG: events });
    const blocked: number[] = [];
    const settled: number[] = [];
    for (let i = 0; i < opts.trials; i++) {
      const sentAt = nowMs();
      const isBlocked = viewWhen(daemon, id, 'blocked', (v) => conditionOf(v) === 'blocked');
      await call('send', { id, text: `MODE:ask question ${i}`, allowNonEmptyBox: false });
      const blockedAt = await isBlocked;
      blocked.push(blockedAt - (await awaitEvent(events, 'menu-drawn', sentAt)).t);
      const answeredAt = nowMs();
      const isSettled = viewWhen(daemon, id, 'settled', (v) => conditionOf(v) === 'settled');
      await call('keys', { id, key: 'enter', allowNonEmptyBox: false });
      const settledAt = await isSettled;
      settled.push(settledAt - (await awaitEvent(events, 'turn-finished', answeredAt)).t);
    }
    const where = host === 'far' ? 'far tmux over ssh (loopback)' : 'local tmux';
    results.push(
      summarise(`blocked detection, ${where}: menu drawn → actor blocked`, 'ms', blocked, host === 'far' ? null : 300),
      summarise(`settled detection, ${where}: turn finished → actor settled`, 'ms', settled, host === 'far' ? null : 300),
    );
    log(`far bench: ${host} detection, ${opts.trials} trials done`);
  }

  // 2. CPU per far streaming worker: an idle window, then N streaming far workers.
  const sshDir = join(home, 'ssh');
  const windowCpu = async () => {
    const cpu0 = process.cpuUsage();
    const ssh0 = sshCpuMs(sshDir);
    await new Promise((r) => setTimeout(r, opts.cpuWindowMs));
    const cpu = process.cpuUsage(cpu0);
    return { daemonPct: ((cpu.user + cpu.system) / 1000 / opts.cpuWindowMs) * 100, sshPct: ((sshCpuMs(sshDir) - ssh0) / opts.cpuWindowMs) * 100 };
  };
  const idle = await windowCpu();
  const ids = Array.from({ length: opts.streaming }, (_, k) => `stream-${k}`);
  for (const id of ids) await dispatch(id, 'far', { KH_MOCK_TICK_MS: '100' });
  for (const id of ids) await call('send', { id, text: 'MODE:hang stream', allowNonEmptyBox: false });
  const busy = await windowCpu();
  const n = opts.streaming;
  results.push(
    single(`daemon CPU per far streaming worker (${n} on MODE:hang, ~10 redraws/s)`, '% of a core', round((busy.daemonPct - idle.daemonPct) / n, 2), null, `daemon ${round(busy.daemonPct, 1)} % with ${n} vs ${round(idle.daemonPct, 1)} % idle, over ${opts.cpuWindowMs} ms`),
    single(`ssh client CPU per far streaming worker (master + control channel)`, '% of a core', round((busy.sshPct - idle.sshPct) / n, 2), null, `ssh ${round(busy.sshPct, 1)} % with ${n} vs ${round(idle.sshPct, 1)} % idle; the far side's sshd and tmux are not counted`),
  );
  log(`far bench: CPU with ${n} streaming far workers done`);
  return results;
}
