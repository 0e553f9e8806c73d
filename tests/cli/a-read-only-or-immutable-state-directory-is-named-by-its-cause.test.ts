/**
 * Rule: a state directory that cannot be written is named by its cause and its fix (issue 43).
 * A read-only state directory was answered "Fix its permissions (chmod 700 …)" and an immutable
 * `workers/` made dispatch fail with "internal error … EPERM"; chmod fixes neither. Each
 * condition is made for real: a read-only bind mount of the state directory over itself, and
 * `chattr +i` on the directory and on its workers/ (skipped, saying why, where the file system
 * keeps no attributes).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliWorld, type CliWorld, stopDaemonAndWait } from './cli-harness.ts';

let w: CliWorld;
const undo: Array<() => void> = [];

function run(file: string, args: string[]): { ok: boolean; err: string } {
  try {
    execFileSync(file, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    return { ok: true, err: '' };
  } catch (err) {
    return { ok: false, err: String((err as { stderr?: unknown }).stderr ?? err) };
  }
}

/** chattr +i on `dir`, undone after the test; the reason when the file system will not take it. */
function makeImmutable(dir: string): string | null {
  const r = run('chattr', ['+i', dir]);
  if (!r.ok) return `chattr +i ${dir} failed (${r.err.trim() || 'no chattr'}): the file system keeps no attributes, or this is not root`;
  undo.push(() => run('chattr', ['-i', dir]));
  return null;
}

beforeAll(async () => {
  w = await makeCliWorld('unwritable-home', { daemonProcess: true });
  expect((await w.hand(['annex', w.repo, '--yolo'])).code).toBe(0);
}, 60_000);
afterAll(async () => {
  for (const u of undo.splice(0).reverse()) u();
  await w?.cleanup();
});

describe('a state directory that cannot be written is named by its cause', () => {
  it('a read-only file system: the mount point and remounting it, never chmod', async (ctx) => {
    await stopDaemonAndWait(w);
    const bind = run('mount', ['--bind', w.home, w.home]);
    if (!bind.ok) return ctx.skip(`cannot bind-mount the state directory (${bind.err.trim()}): not root, or no mount namespace of our own`);
    undo.push(() => run('umount', [w.home]));
    expect(run('mount', ['-o', 'remount,ro,bind', w.home]).ok).toBe(true);
    try {
      const r = await w.hand(['status', '--json']);
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.json.error.code).toBe('home-unusable');
      expect(r.json.error.message).toContain('read-only file system');
      expect(r.json.error.message).toContain(`mount -o remount,rw ${w.home}`);
      expect(r.json.error.message).not.toMatch(/chmod 7|Fix its permissions/);
    } finally {
      undo.pop()!();
    }
  }, 60_000);

  it('the immutable bit on the state directory: the attribute and chattr -i, never chmod', async (ctx) => {
    if (existsSync(join(w.home, 'daemon.pid'))) await stopDaemonAndWait(w);
    const why = makeImmutable(w.home);
    if (why) return ctx.skip(why);
    try {
      const r = await w.hand(['status', '--json']);
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.json.error.message).toContain('immutable');
      expect(r.json.error.message).toContain(`chattr -i ${w.home}`);
      expect(r.json.error.message).not.toMatch(/chmod 7|Fix its permissions/);
    } finally {
      undo.pop()!();
    }
  }, 60_000);

  it('an immutable workers/: dispatch names the directory and chattr -i, never an internal EPERM', async (ctx) => {
    const workers = join(w.home, 'workers');
    mkdirSync(workers, { recursive: true, mode: 0o700 });
    const why = makeImmutable(workers);
    if (why) return ctx.skip(why);
    try {
      const r = await w.hand(['dispatch', 'w1', '--repo', w.repo, '--brief', w.brief('w1', 'work'), '--agent', 'mock', '--json']);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.json.error.code).toBe('write-refused');
      expect(r.json.error.message).toContain(`${workers} has the immutable attribute`);
      expect(r.json.error.message).toContain(`chattr -i ${workers}`);
      expect(r.json.error.message).not.toMatch(/internal error/);
    } finally {
      undo.pop()!();
    }
    // Once the bit is gone the same dispatch goes through.
    const again = await w.hand(['dispatch', 'w1', '--repo', w.repo, '--brief', w.brief('w1', 'work'), '--agent', 'mock', '--json']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  }, 60_000);
});
