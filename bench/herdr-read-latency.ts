/**
 * One herdr screen read, two ways, against the herdr double: the CLI (`herdr pane read
 * --source visible --format ansi`, a process per read — how the herdr host read until
 * docs/2026-12-02-herdr-reads-over-the-socket.md) and the socket (`pane.read`, what it does now).
 * Prints median and mean latency per read, and the CPU per read of this process plus its
 * finished children (the CLI processes). Standalone: `npx tsx bench/herdr-read-latency.ts [N]`.
 */
import { execa } from 'execa';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { herdrRequests, socketRequest } from '../io/terminal/herdr/herdr-socket.ts';
import { DOUBLE_PATH, baseEnv } from '../tests/doubles/herdr/fixture.ts';

const N = Number(process.argv[2] ?? 30);

/** User+system CPU of this process and its reaped children, in ms. */
function cpuMs(): number {
  const self = process.resourceUsage();
  const selfMs = (self.userCPUTime + self.systemCPUTime) / 1000;
  return selfMs + childrenCpuMs();
}
function childrenCpuMs(): number {
  // Node has no getrusage(RUSAGE_CHILDREN); /proc/self/stat fields 16/17 (cutime/cstime) are it.
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[13]) + Number(fields[14]);
  return (ticks * 1000) / 100;
}

async function measure(label: string, once: () => Promise<unknown>): Promise<void> {
  const samples: number[] = [];
  const cpu0 = cpuMs();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    await once();
    samples.push(performance.now() - t);
  }
  const mean = (performance.now() - t0) / N;
  const cpu = (cpuMs() - cpu0) / N;
  samples.sort((a, b) => a - b);
  console.log(`${label}: n=${N}  median ${samples[Math.floor(N / 2)]!.toFixed(1)} ms  mean ${mean.toFixed(1)} ms  client CPU/read ${cpu.toFixed(1)} ms`);
}

const dir = mkdtempSync(join(tmpdir(), 'kh-test-herdr-read-latency-'));
const socketPath = join(dir, 'herdr.sock');
const env = { ...baseEnv(dir), HERDR_SOCKET_PATH: socketPath };
const server = spawn(process.execPath, [DOUBLE_PATH, 'server'], { env, stdio: 'ignore' });
try {
  while (!(await socketRequest(socketPath, 'ping', {}, 500)).ok) await new Promise((r) => setTimeout(r, 50));
  const created = await socketRequest<{ root_pane: { pane_id: string } }>(socketPath, 'workspace.create', { cwd: dir, label: 'bench', env: {} });
  if (!created.ok) throw new Error(`workspace.create: ${created.error.code}`);
  const paneId = created.result.root_pane.pane_id;
  await measure('CLI    herdr pane read (process per read)', () =>
    execa(process.execPath, [DOUBLE_PATH, 'pane', 'read', paneId, '--source', 'visible', '--format', 'ansi'], { env, extendEnv: false, reject: false }));
  await measure('socket pane.read                        ', () => socketRequest(socketPath, ...herdrRequests.readVisible(paneId)));
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}
