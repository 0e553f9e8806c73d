/**
 * Rule: a read path (and a relaunch note file) is a regular file outside /proc, /sys and /dev
 * (issue 37 probe case 7). `--read-path /proc/self/environ` copied the daemon's whole environment
 * into a worker's read-first/: a /proc file stats as a regular file. Refused now by where it is
 * (the path as given and the path it resolves to, so `/proc/self/root/…`, `/dev/fd/N` and a link
 * into /proc are refused too) and by what file system holds it; a FIFO or a device is refused as
 * not a regular file, and the refusal comes back at once (the FIFO is never opened for reading).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateReadPaths } from '../../io/brief/read-paths.ts';
import { useTempDirs } from '../helpers/use-temp-dir.ts';
import { readPathRefusal } from './read-path-refusal.ts';

const tempDir = useTempDirs();

function world() {
  const root = realpathSync(tempDir('read-path-proc'));
  const home = join(root, 'home');
  const state = join(root, 'state');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  mkdirSync(state);
  const key = join(home, '.ssh', 'id_ed25519');
  writeFileSync(key, 'not a real key\n');
  const ctx = { homes: [home], stateDir: state };
  const refusal = readPathRefusal(ctx);
  return { root, home, key, refusal };
}

describe('read paths never reach /proc, /sys, /dev or a file that is not a regular file', () => {
  it('refuses /proc/self/environ and other /proc and /sys files, naming the place', () => {
    const w = world();
    expect(w.refusal('/proc/self/environ')).toMatch(/\/proc/);
    expect(w.refusal('/proc/version')).toMatch(/\/proc/);
    expect(w.refusal(`/proc/${process.pid}/cmdline`)).toMatch(/\/proc/);
    expect(w.refusal('/sys/kernel/uevent_seqnum')).toMatch(/\/sys|not a regular file|does not exist/);
  });

  it('refuses what resolves into /proc or a denied place: /proc/self/root/<key>, /dev/fd/N, a link to /proc', () => {
    const w = world();
    expect(w.refusal(`/proc/self/root${w.key}`)).toMatch(/\/proc|\.ssh/);
    const link = join(w.root, 'env.txt');
    symlinkSync('/proc/self/environ', link);
    expect(w.refusal(link)).toMatch(/\/proc/);
    const plain = join(w.root, 'plain.md');
    writeFileSync(plain, 'plain\n');
    const fd = openSync(plain, 'r');
    try {
      expect(w.refusal(`/dev/fd/${fd}`)).toMatch(/\/dev/);
    } finally {
      closeSync(fd);
    }
  });

  it('refuses /dev/zero and a FIFO as not regular files, at once', () => {
    const w = world();
    expect(w.refusal('/dev/zero')).toMatch(/not a regular file|\/dev/);
    const fifo = join(w.root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    expect(w.refusal(fifo)).toMatch(/not a regular file/);
    expect(Date.now() - started).toBeLessThan(2000);
    const linkToFifo = join(dirname(fifo), 'pipe.md');
    symlinkSync(fifo, linkToFifo);
    expect(w.refusal(linkToFifo)).toMatch(/not a regular file/);
  });

  it('still hands over an ordinary file', () => {
    const w = world();
    const plain = join(w.root, 'spec.md');
    writeFileSync(plain, '# Spec\n');
    expect(validateReadPaths([plain], { homes: [w.home] })).toEqual([{ source: plain, leaf: 'spec.md' }]);
  });
});
