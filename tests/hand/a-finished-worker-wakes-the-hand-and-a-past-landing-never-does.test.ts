/**
 * Rule: every need wakes the Hand, and only needs (issue 38 item 1). A worker that finished with
 * its report waits on the person — its landing is their next step — so `hand watch --needs-you`
 * sends it, with `hand land <id>`, the moment it is done (before, the digest listed it and the wake
 * did not). A landing that already happened is past: a watcher that starts after it (the next
 * session's Monitor) hears nothing of it.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { useDaemonWorld } from '../helpers/daemon-world.ts';
import { buildDigest, formatDigest } from '../../cli/commands/digest.ts';

const world = useDaemonWorld();

describe('a finished worker wakes the Hand; a past landing never does', () => {
  it('done with a report: one wake naming hand land; landed: no wake for a watcher that starts later', async () => {
    const w = await world('wake-on-done', { annexYolo: true });
    const events: any[] = [];
    let seen: (() => void) | null = null;
    const watching = w.call('watch', { needsYou: true, timeoutMs: 120_000 }, { onProgress: (p) => { events.push(p); seen?.(); } }).catch((err: unknown) => err);
    const report = join(w.home, 'workers', 'f1', 'out', 'report.md');
    await w.dispatch('f1', `MODE:report ${report}`);
    const done = await new Promise<any>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no done event for f1 within 45 s; events: ${JSON.stringify(events)}`)), 45_000);
      const check = () => {
        const e = events.find((x) => x.worker === 'f1' && x.need === 'done');
        if (e) {
          clearTimeout(t);
          resolve(e);
        }
      };
      seen = check;
      check();
    });
    expect(done.command).toBe('hand land f1');
    expect(done.line).toContain('f1 finished and wrote its report');
    expect(done.line).toContain('→ hand land f1');

    // The worker's work, committed in its worktree (the mock only draws its commands).
    const wt = join(w.repo, '.claude', 'worktrees', 'f1');
    writeFileSync(join(wt, 'feature.txt'), 'feature\n');
    for (const args of [['add', 'feature.txt'], ['-c', 'user.name=w', '-c', 'user.email=w@example.invalid', 'commit', '-q', '-m', 'Add the feature']]) execFileSync('git', ['-C', wt, ...args]);
    const landed = await w.call('land', { id: 'f1' });
    expect(landed.stage, JSON.stringify(landed)).toBe('landed');
    // A watcher that starts now (the next session) is told what waits — and a landing does not.
    const late: any[] = [];
    const r = await w.call('watch', { needsYou: true, timeoutMs: 1_000 }, { onProgress: (p) => late.push(p) });
    expect(late.filter((e) => e.worker === 'f1'), JSON.stringify(late)).toEqual([]);
    expect(r.pending.filter((e: any) => e.worker === 'f1')).toEqual([]);
    expect(events.filter((e) => e.worker === 'f1').map((e) => e.need), 'the first watcher heard f1 once, as done').toEqual(['done']);
    // The next session's digest names it landed, not gone.
    expect(formatDigest(await buildDigest(w.paths, null))).toMatch(/WORKERS 1: landed f1/);
    await w.stop();
    await watching;
  }, 120_000);
});
