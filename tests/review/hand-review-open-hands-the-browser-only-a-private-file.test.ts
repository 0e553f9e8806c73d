/**
 * Rule: `hand review --open` hands the browser only the path of a private file (issue 37 item 4).
 * It used to start the browser with `?login=<code>` in its argv, and a second local account
 * polling /proc won the race for the code. Now the daemon writes a 0600 file in the 0700
 * `<state>/review-login` that posts the code; the browser's argv holds a file:// URL and nothing
 * else. The code is good once, for a minute, and buys a session (not the token); the file goes
 * with its code; outstanding codes and sign-in guesses are bounded. The browser here is a
 * program named by HAND_BROWSER that records its own command line, started by the real binary.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';
import { CODE_TTL_MS, MAX_CODES } from '../../actors/review/login-codes.ts';
import { loginDir } from '../../actors/review/login-file.ts';
import { pageWithClock, postCode, readLoginFile } from '../helpers/review-session.ts';
import { makeTempDir, waitFor } from '../helpers/temp.ts';

const makeWorld = useCliWorld();

describe('hand review --open hands the browser only a private file', () => {
  it('the browser argv holds a file:// path, no token and no code; the 0600 file signs in once', async () => {
    const w = await makeWorld('review-open', { binary: true });
    const seen = join(w.root, 'browser-argv.txt');
    mkdirSync(join(w.root, 'bin'));
    const browser = join(w.root, 'bin', 'fake-browser');
    writeFileSync(browser, `#!/bin/sh\ntr '\\0' '\\n' < /proc/$$/cmdline > ${JSON.stringify(`${seen}.tmp`)} && mv ${JSON.stringify(`${seen}.tmp`)} ${JSON.stringify(seen)}\n`);
    chmodSync(browser, 0o755);
    const r = await w.hand(['review', '--open', '--json'], { env: { HAND_BROWSER: browser } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.loginFile, 'the file is for the browser only').toBeUndefined();
    await waitFor(() => existsSync(seen), { timeoutMs: 10_000, what: 'the browser script to record its command line' });
    const argv = readFileSync(seen, 'utf8');
    const opened = argv.trim().split('\n').at(-1)!;
    expect(opened).toMatch(/^file:\/\/\/.*\/review-login\/[0-9a-f]{24}\.html$/);
    const file = fileURLToPath(opened);
    expect(dirname(file)).toBe(loginDir(w.home));
    expect(statSync(file).mode & 0o777, 'the file is the person\'s alone').toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);

    const token = readFileSync(join(w.home, 'review.token'), 'utf8').trim();
    const { action, code } = readLoginFile(file);
    for (const secret of [token, code]) expect(argv, 'no secret in the argv').not.toContain(secret);
    expect(argv).not.toMatch(/token=|login=|code=/);
    expect(action).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login$/);

    const first = await postCode(action, code);
    expect(first.status, await first.clone().text()).toBe(200);
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^hand_review=[0-9a-f]{64}; HttpOnly; SameSite=Strict; Path=\/$/);
    expect(cookie, 'the cookie is a session, not the token').not.toContain(token);
    expect(await first.text()).toContain('<meta http-equiv="refresh" content="0;url=/">');
    expect((await fetch(`${new URL(action).origin}/`, { headers: { cookie: cookie.split(';')[0]! } })).status).toBe(200);
    expect(existsSync(file), 'the file goes with its code').toBe(false);

    const second = await postCode(action, code);
    expect(second.status, 'a code is good once').toBe(403);
    expect(await second.text()).toContain('used already, has expired or is wrong');
    expect(second.headers.get('set-cookie')).toBeNull();
  });

  it('a code expires after a minute, and its file is removed', async () => {
    const page = await pageWithClock();
    try {
      const onTime = page.server.loginFile();
      const late = page.server.loginFile();
      expect((await postCode(readLoginFile(onTime).action, readLoginFile(onTime).code)).status).toBe(200);
      const { action, code } = readLoginFile(late);
      page.advance(CODE_TTL_MS);
      expect((await postCode(action, code)).status, 'a minute later').toBe(403);
      expect(existsSync(late)).toBe(false);
    } finally {
      await page.close();
    }
  });

  it('outstanding codes are bounded: the oldest is voided and its file removed', async () => {
    const page = await pageWithClock();
    try {
      const files = Array.from({ length: MAX_CODES + 4 }, () => page.server.loginFile());
      expect(readdirSync(loginDir(page.home)).length).toBe(MAX_CODES);
      const oldest = files[0]!;
      expect(existsSync(oldest)).toBe(false);
      const newest = readLoginFile(files.at(-1)!);
      expect((await postCode(newest.action, newest.code)).status).toBe(200);
    } finally {
      await page.close();
    }
  });

  it('a sign-in directory swapped for a link is refused, and nothing is written through it', async () => {
    const page = await pageWithClock();
    const elsewhere = makeTempDir('login-elsewhere');
    try {
      rmSync(loginDir(page.home), { recursive: true });
      symlinkSync(elsewhere.path, loginDir(page.home));
      expect(() => page.server.loginFile()).toThrow(/is not a plain directory/);
      expect(readdirSync(elsewhere.path)).toEqual([]);
    } finally {
      elsewhere.cleanup();
      await page.close();
    }
  });

  it('wrong codes are bounded: after ten, every sign-in is refused unread until the budget refills', async () => {
    // The clock stands still: no bucket refills while the requests are made, however slow the machine.
    const page = await pageWithClock();
    try {
      const { action, code } = readLoginFile(page.server.loginFile());
      const guesses: number[] = [];
      for (let i = 0; i < 12; i++) guesses.push((await postCode(action, i.toString(16).padStart(32, '0'))).status);
      expect(guesses.slice(0, 10).every((st) => st === 403), guesses.join(' ')).toBe(true);
      expect(guesses.slice(10), 'the eleventh guess on is refused unread').toEqual([429, 429]);
      expect((await postCode(action, code)).status, 'even the right code, while the budget is spent: a guess learns nothing').toBe(429);
      expect((await fetch(`${page.origin}/?token=${page.token}`, { redirect: 'manual' })).status).toBe(429);
      page.advance(5000);
      expect((await postCode(action, code)).status, 'five seconds later a sign-in is read again').toBe(200);
    } finally {
      await page.close();
    }
  });
});
