/**
 * Rule: a worker cannot freeze or exhaust the daemon through its own files (issue 37 probe case
 * 5). report.md as a FIFO blocked the daemon when the page opened (every command then timed out
 * at 20 s); linked to /dev/zero it grew the daemon to 620 MB until it died. The daemon here is its
 * own process (real tmux, the mock agent): a FIFO, a link to /dev/zero and a 1 GiB sparse file are
 * planted where three workers write their reports, each worker settles on its file, and the page
 * and `hand status` answer in their usual time, the daemon's peak memory stays bounded, and it is
 * the same daemon afterwards.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handOk, useCliWorld } from '../helpers/cli-world.ts';
import { reviewSession } from '../helpers/review-session.ts';
import { readLockHolder, pidAlive } from '../../persistence/lock-holder.ts';

const makeWorld = useCliWorld({ daemonProcess: true });

/** The daemon's peak resident memory so far (VmHWM), in MB. */
function peakMb(pid: number): number {
  const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return Number(m[1]) / 1024;
}

const PLANTS: Record<string, (path: string) => void> = {
  fifo: (p) => execFileSync('mkfifo', ['-m', '600', p]),
  zero: (p) => symlinkSync('/dev/zero', p),
  big: (p) => {
    writeFileSync(p, '# Report\n');
    truncateSync(p, 1 << 30); // 1 GiB, sparse: nothing of it is on disk
  },
};

describe('a worker cannot freeze or exhaust the daemon through its report', () => {
  it('a FIFO, a link to /dev/zero and a 1 GiB file as report.md: the page and status answer, memory stays bounded, the daemon lives', async () => {
    const w = await makeWorld('report-freeze');
    const ok = handOk(w);
    await ok(['annex', w.repo, '--yolo']);
    const reports: Record<string, string> = {};
    for (const id of Object.keys(PLANTS)) reports[id] = (await ok(['dispatch', id, '--repo', w.repo, '--brief', w.brief(id, 'Say hi.'), '--agent', 'mock', '--backend', 'tmux'])).reportPath;
    for (const id of Object.keys(PLANTS)) await ok(['wait', id, '--until', 'settled', '--timeout', '30s']);
    const holder = readLockHolder(w.home);
    expect(holder, 'the daemon runs as its own process').not.toBeNull();
    const pid = holder!.pid;
    const before = peakMb(pid);

    for (const [id, plant] of Object.entries(PLANTS)) {
      mkdirSync(dirname(reports[id]!), { recursive: true });
      plant(reports[id]!);
    }
    // Each worker settles again on its planted file: the daemon looks at it.
    for (const id of Object.keys(PLANTS)) await ok(['send', id, 'Say hi again.']);
    for (const id of Object.keys(PLANTS)) await ok(['wait', id, '--until', 'settled', '--timeout', '30s']);

    const page = await reviewSession(w.hand);
    for (const id of Object.keys(PLANTS)) {
      const r = await page.get(`/w/${id}`, 10_000);
      expect(r.status, `the page of ${id}`).toBe(200);
      expect(r.text, `the page of ${id} says its report was refused or cut`).toMatch(/refused|truncated|cut at/i);
    }
    const started = Date.now();
    const status = await w.hand(['status', '--json'], { timeoutMs: 10_000 });
    expect(status.code, status.stdout + status.stderr).toBe(0);
    expect(Date.now() - started, 'hand status answers in its usual time').toBeLessThan(10_000);
    const rows = Object.fromEntries((status.json as { id: string; problem: string | null }[]).map((r) => [r.id, r]));
    expect(rows.fifo!.problem).toMatch(/refused.*FIFO/i);
    expect(rows.zero!.problem).toMatch(/refused.*symbolic link/i);

    expect(pidAlive(pid), 'the daemon is alive').toBe(true);
    expect(readLockHolder(w.home)?.pid, 'and it is the same daemon (none was started in its place)').toBe(pid);
    expect(peakMb(pid) - before, 'the daemon read at most its cap of each file').toBeLessThan(100);
  });
});
