/**
 * Rule: a file a worker controls is read as a stranger's (issue 37 item 2, io/fs/untrusted-file.ts):
 * opened without following a link and without blocking, checked on the opened descriptor — a
 * regular file of this user's with one name, in a directory that is not a link — and read only up
 * to its cap. Three answers: absent (no report), refused with the reason in a person's words
 * (never "no report"), or read (cut, and said so). Each refusal is tried here the way a worker
 * would try it.
 */
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { probeUntrustedFile, readUntrustedFile, readUntrustedFileSync, refusalLine, type UntrustedRead } from '../../io/fs/untrusted-file.ts';
import { makeTempDir } from '../helpers/temp.ts';

let tmp: ReturnType<typeof makeTempDir> | undefined;
afterEach(() => tmp?.cleanup());

function dir(): string {
  tmp = makeTempDir('untrusted-read');
  return tmp.path;
}

/** Both readers give the same answer. */
async function both(path: string, o: Parameters<typeof readUntrustedFile>[1] = {}): Promise<UntrustedRead> {
  const a = await readUntrustedFile(path, o);
  expect(readUntrustedFileSync(path, o)).toEqual(a);
  return a;
}

describe("a worker's file is read as a stranger's", () => {
  it('a regular file of ours is read; an absent one is absent, not refused', async () => {
    const d = dir();
    writeFileSync(join(d, 'report.md'), '# Report\nDone.\n');
    expect(await both(join(d, 'report.md'))).toEqual({ kind: 'read', text: '# Report\nDone.\n', size: 15, truncated: false });
    expect(await both(join(d, 'missing.md'))).toEqual({ kind: 'absent' });
    expect(await probeUntrustedFile(join(d, 'report.md'))).toEqual({ kind: 'present', size: 15 });
    expect(await probeUntrustedFile(join(d, 'missing.md'))).toEqual({ kind: 'absent' });
  });

  it('a symbolic link is refused (ELOOP), whether it points at a secret, /dev/zero or nowhere', async () => {
    const d = dir();
    const secret = join(d, 'id_ed25519');
    writeFileSync(secret, 'SECRET\n');
    for (const [name, target] of [['to-secret.md', secret], ['to-zero.md', '/dev/zero'], ['dangling.md', join(d, 'nothing')]] as const) {
      symlinkSync(target, join(d, name));
      const r = await both(join(d, name));
      expect(r, name).toMatchObject({ kind: 'refused', refused: 'link' });
      expect(refusalLine(r as { reason: string }), name).toMatch(/^refused: .* is a symbolic link/);
      expect(JSON.stringify(r)).not.toContain('SECRET');
    }
  });

  it('a FIFO is refused at once (its open never waits for a writer), as are a socket and a directory', async () => {
    const d = dir();
    execFileSync('mkfifo', [join(d, 'fifo.md')]);
    const started = Date.now();
    expect(await both(join(d, 'fifo.md'))).toMatchObject({ kind: 'refused', refused: 'not-regular', reason: expect.stringMatching(/FIFO/) });
    expect(Date.now() - started).toBeLessThan(1000);
    const server = createServer();
    await new Promise<void>((r) => server.listen(join(d, 'sock.md'), r));
    try {
      expect(await both(join(d, 'sock.md'))).toMatchObject({ kind: 'refused', refused: 'not-regular' });
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
    mkdirSync(join(d, 'dir.md'));
    expect(await both(join(d, 'dir.md'))).toMatchObject({ kind: 'refused', refused: 'not-regular', reason: expect.stringMatching(/directory/) });
  });

  it('a device is refused as not a regular file', async () => {
    expect(readUntrustedFileSync('/dev/null', { ownedOnly: false })).toMatchObject({ kind: 'refused', refused: 'not-regular', reason: expect.stringMatching(/device/) });
  });

  it('a hard link (the same file under a second name) is refused; a file of another user is refused', async () => {
    const d = dir();
    writeFileSync(join(d, 'key'), 'SECRET\n');
    linkSync(join(d, 'key'), join(d, 'report.md'));
    expect(await both(join(d, 'report.md'))).toMatchObject({ kind: 'refused', refused: 'hard-link', reason: expect.stringMatching(/2 names/) });
    writeFileSync(join(d, 'theirs.md'), 'x');
    expect(await both(join(d, 'theirs.md'), { uid: (process.getuid?.() ?? 0) + 1 })).toMatchObject({ kind: 'refused', refused: 'foreign-owner' });
  });

  it('a directory on the way that is a link is refused (a swapped out/ leads nowhere)', async () => {
    const d = dir();
    mkdirSync(join(d, 'elsewhere'));
    writeFileSync(join(d, 'elsewhere', 'report.md'), 'SECRET\n');
    symlinkSync(join(d, 'elsewhere'), join(d, 'out'));
    expect(await both(join(d, 'out', 'report.md'))).toMatchObject({ kind: 'refused', refused: 'directory-link' });
  });

  it('reads at most its cap and says the file was longer: a 1 GiB sparse file costs the cap', async () => {
    const d = dir();
    const big = join(d, 'report.md');
    writeFileSync(big, 'head\n');
    truncateSync(big, 1 << 30);
    const before = process.memoryUsage().rss;
    const r = await both(big, { maxBytes: 1024 });
    expect(r).toMatchObject({ kind: 'read', size: 1 << 30, truncated: true });
    expect((r as { text: string }).text.length).toBe(1024);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 << 20);
  });
});
