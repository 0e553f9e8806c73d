/**
 * Rule: another local account reaches neither the daemon nor the review page (issue 24 item 5).
 * A second account, made by the test and removed after, tries what the hostile run did: read the
 * review token, the keys and the database, connect to the daemon's socket, and read the browser's
 * argv after `hand review --open` (it finds the path of a sign-in file it cannot read, never the
 * token nor a code: issue 37). The world's directory is opened to everyone (0755) so only
 * kingshand's own modes stand in the way. The modes were right before issue 24; the argv was not
 * (hand-review-open-hands-the-browser-only-a-private-file.test.ts; the race itself:
 * a-second-account-racing-the-sign-in-finds-no-code.test.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';
import { waitFor } from '../helpers/temp.ts';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const user = `kh${randomBytes(4).toString('hex')}`;
const makeWorld = useCliWorld();
afterAll(() => {
  if (isRoot) spawnSync('userdel', ['-f', user], { stdio: 'ignore' });
});

/** Runs argv as the other account; its exit code and what it printed. */
function asOther(argv: string[]): { code: number; out: string } {
  const r = spawnSync('runuser', ['-u', user, '--', ...argv], { encoding: 'utf8', timeout: 15_000 });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

describe('another local account reaches nothing', () => {
  it.skipIf(!isRoot)('cannot read the token or the key, cannot connect to the socket, and finds no token in the browser argv', async () => {
    execFileSync('useradd', ['-M', '-s', '/usr/sbin/nologin', user]);
    const w = await makeWorld('other-account', { binary: true });
    chmodSync(w.root, 0o755);
    mkdirSync(join(w.root, 'bin'));
    const seen = join(w.root, 'argv.txt');
    const opener = join(w.root, 'bin', 'xdg-open');
    // The "browser" stays up for a moment, as a real one does, so its argv can be read by anyone.
    writeFileSync(opener, `#!/bin/sh\necho $$ > ${JSON.stringify(seen)}.pid\nsleep 5\n`);
    chmodSync(opener, 0o755);
    const r = await w.hand(['review', '--open', '--json'], { env: { PATH: `${join(w.root, 'bin')}:${w.env.PATH}` } });
    expect(r.code, r.stderr).toBe(0);
    const pid = await waitFor(() => (existsSync(`${seen}.pid`) ? readFileSync(`${seen}.pid`, 'utf8').trim() : undefined), { timeoutMs: 10_000, what: 'the opener to start' });

    const token = readFileSync(join(w.home, 'review.token'), 'utf8').trim();
    const cmdline = asOther(['cat', `/proc/${pid}/cmdline`]);
    expect(cmdline.out, 'the other account reads the opener argv (as it did the browser\'s)').toContain('file:///');
    expect(cmdline.out).not.toContain(token);
    expect(cmdline.out).not.toMatch(/login=|token=|code=/);
    const file = cmdline.out.split('\0').find((a) => a.startsWith('file:///'))!;
    const read = asOther(['cat', new URL(file).pathname]);
    expect(read.out, 'the sign-in file is the person\'s alone').toContain('Permission denied');

    for (const file of ['review.token', 'authority.key', 'hook.key', 'fleet.db']) {
      const read = asOther(['cat', join(w.home, file)]);
      expect(read.code, `${file}: ${read.out}`).not.toBe(0);
      expect(read.out).toContain('Permission denied');
    }
    const sock = asOther(['socat', '-', `UNIX-CONNECT:${join(w.home, 'hand.sock')}`]);
    expect(sock.code, sock.out).not.toBe(0);
    expect(sock.out).toContain('Permission denied');
    spawnSync('kill', [pid]);
  });
});
