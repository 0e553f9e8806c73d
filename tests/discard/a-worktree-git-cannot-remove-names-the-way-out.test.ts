/**
 * Issue 25 #4: a worktree git cannot remove (immutable here, `chattr +i`) gives the exact state
 * and the way out. Before: git dropped the worktree's admin entry and kept the directory, and
 * every later `hand discard` said it "could not tell whether … holds uncommitted work … nothing
 * was changed" — the worker could never be discarded. Now each attempt names the path, the fix
 * and `--forget`, and `--forget` drops the record and says what it left on disk.
 * Skipped with the reason where the file system or the user cannot set the immutable flag.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { useDaemonWorld } from '../helpers/daemon-world.ts';
import { runPrefix } from '../helpers/temp.ts';

/** Whether `chattr +i` works on this machine's temp file system (root on ext4, xfs, btrfs…), or why not. */
function immutableUnsupported(): string | null {
  const probe = join(tmpdir(), `${runPrefix()}chattr-probe-${process.pid}`);
  mkdirSync(probe, { recursive: true });
  try {
    execFileSync('chattr', ['+i', probe], { stdio: 'pipe' });
    execFileSync('chattr', ['-i', probe], { stdio: 'pipe' });
    return null;
  } catch (err) {
    return `chattr +i is refused here: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`;
  } finally {
    rmdirSync(probe);
  }
}
const skipWhy = immutableUnsupported();
if (skipWhy) console.warn(`skipped: ${skipWhy}`);

const world = useDaemonWorld();
const unlocked: string[] = [];
afterEach(() => {
  // the flag first, or the world's cleanup cannot delete its temp dir
  for (const p of unlocked.splice(0)) if (existsSync(p)) execFileSync('chattr', ['-R', '-i', p], { stdio: 'pipe' });
});

describe.skipIf(skipWhy !== null)('a worktree git cannot remove names the way out', () => {
  it('discard names the path, the fix and --forget each time; --forget drops the record and says what is left', async () => {
    const w = await world('stuck-worktree');
    await w.call('annex', { repo: w.repo, name: 'p', posture: 'local-only', yolo: true });
    const d = await w.dispatch('w1', 'Say hi.');
    await w.call('wait', { id: 'w1', until: 'settled', timeoutMs: 60_000 });
    await w.call('stop', { id: 'w1', timeoutMs: 30_000 });
    execFileSync('chattr', ['+i', d.worktree], { stdio: 'pipe' });
    unlocked.push(d.worktree);

    for (const attempt of [1, 2]) {
      const r = await w.refusal('discard', { id: 'w1' });
      expect(r.code, `attempt ${attempt}: ${r.message}`).toBe('worktree-stuck');
      expect(r.message).not.toMatch(/^could not tell/);
      expect(r.message).toContain(`worker w1's worktree ${d.worktree} cannot be removed through git`);
      expect(r.message).toContain('the directory is still on disk');
      expect(r.message).toContain(`chattr -R -i ${d.worktree}`);
      expect(r.message).toContain('hand discard w1 --forget');
    }

    const f = await w.call('discard', { id: 'w1', forget: true });
    expect(f).toMatchObject({ id: 'w1', worktree: 'left-on-disk', leftBehind: [d.worktree], branch: 'kept' });
    expect(existsSync(d.worktree)).toBe(true);
    expect((await w.call('status', {})).map((v: { id: string }) => v.id)).not.toContain('w1');
  }, 120_000);
});
