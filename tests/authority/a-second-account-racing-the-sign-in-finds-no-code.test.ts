/**
 * Rule: another local account racing `hand review --open` finds no code to race for (issue 37
 * item 4). In the hostile run a second account polled /proc every 2 ms, read `?login=<code>` from
 * the browser's command line and signed in before the person's browser did. Here a second
 * account, made by the test and removed after, reads every /proc/<pid>/cmdline, sleeps 1 ms and
 * reads again (a full pass each 2 ms or so here, as fast as the hostile run's) from before `hand review --open` (the real binary) until after the sign-in, and
 * tries to read every file:// path it sees. The browser is a program named by HAND_BROWSER that
 * stays up a moment, as a real one does. The account sees the browser's command line, but only
 * a file path it cannot open; the person (the test, reading the file as the browser would) signs
 * in once, and a second redemption is refused. On the old code the poller saw the code.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';
import { waitFor } from '../helpers/temp.ts';
import { postCode, readLoginFile } from '../helpers/review-session.ts';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const user = `kh${randomBytes(4).toString('hex')}`;
const makeWorld = useCliWorld();
afterAll(() => {
  if (isRoot) spawnSync('userdel', ['-f', user], { stdio: 'ignore' });
});

/**
 * The other account's poller: every /proc/<pid>/cmdline, then a 1 ms sleep, until told to stop;
 * each file:// URL it sees it tries to open at once. It writes what it saw when it ends.
 */
const POLLER = `
const fs = require('fs');
const [out, boundMs] = process.argv.slice(1);
const seen = new Set();
const tried = {};
const nap = new Int32Array(new SharedArrayBuffer(4));
const started = Date.now();
const until = started + Number(boundMs);
let polls = 0;
fs.writeFileSync(out + '.ready', String(process.pid));
while (Date.now() < until && !fs.existsSync(out + '.stop')) {
  for (const p of fs.readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(p)) continue;
    let c = '';
    try { c = fs.readFileSync('/proc/' + p + '/cmdline', 'latin1').split('\\0').join(' ').trim(); } catch {}
    if (!c || seen.has(c)) continue;
    seen.add(c);
    for (const m of c.matchAll(/file:\\/\\/(\\S+)/g)) {
      try { tried[m[1]] = 'read ' + fs.readFileSync(decodeURIComponent(m[1]), 'utf8').length + ' bytes'; } catch (e) { tried[m[1]] = e.code; }
    }
  }
  polls += 1;
  Atomics.wait(nap, 0, 0, 1);
}
fs.writeFileSync(out, JSON.stringify({ polls, ms: Date.now() - started, seen: [...seen], tried }));
`;

describe('a second account racing the sign-in finds no code', () => {
  it.skipIf(!isRoot)('polling /proc every millisecond through hand review --open, it sees only a path it cannot open', async () => {
    execFileSync('useradd', ['-M', '-s', '/usr/sbin/nologin', user]);
    const w = await makeWorld('racing-account', { binary: true });
    chmodSync(w.root, 0o755);
    const theirs = join(w.root, 'other');
    mkdirSync(theirs);
    chmodSync(theirs, 0o777);
    const out = join(theirs, 'seen.json');
    const poller = spawn('runuser', ['-u', user, '--', process.execPath, '-e', POLLER, out, '60000'], { stdio: 'ignore' });
    const pollerExit = new Promise<number | null>((r) => poller.once('exit', r));
    try {
      await waitFor(() => existsSync(`${out}.ready`), { what: "the other account's poller to start", timeoutMs: 15_000 });

      mkdirSync(join(w.root, 'bin'));
      const argvFile = join(w.root, 'browser-argv');
      const browser = join(w.root, 'bin', 'fake-browser');
      // Up for a moment, as a real browser is, so its command line can be read by anyone.
      writeFileSync(browser, `#!/bin/sh\nprintf '%s' "$1" > ${JSON.stringify(`${argvFile}.tmp`)} && mv ${JSON.stringify(`${argvFile}.tmp`)} ${JSON.stringify(argvFile)}\nsleep 1.5\n`);
      chmodSync(browser, 0o755);
      const r = await w.hand(['review', '--open', '--json'], { env: { HAND_BROWSER: browser } });
      expect(r.code, r.stderr).toBe(0);
      const opened = await waitFor(() => (existsSync(argvFile) ? readFileSync(argvFile, 'utf8') : undefined), { what: 'the browser to be started', timeoutMs: 10_000 });
      expect(opened, 'what the browser was handed').toMatch(/^file:\/\/\/[^?#]*\.html$/);
      const file = fileURLToPath(opened);

      // Before the browser signs in: the file and its directory are closed to the other account.
      const cat = spawnSync('runuser', ['-u', user, '--', 'cat', file], { encoding: 'utf8' });
      expect(cat.status).not.toBe(0);
      expect(cat.stderr).toContain('Permission denied');
      const ls = spawnSync('runuser', ['-u', user, '--', 'ls', dirname(file)], { encoding: 'utf8' });
      expect(ls.stderr).toContain('Permission denied');

      // The browser (the test, reading the file as the person) signs in; once only.
      const { action, code } = readLoginFile(file);
      expect((await postCode(action, code)).status).toBe(200);
      expect((await postCode(action, code)).status, 'a second redemption').toBe(403);
      // The browser's moment is over before the poller is stopped: it had all of it.
      await waitFor(() => spawnSync('pgrep', ['-f', browser]).status !== 0 || undefined, { what: 'the fake browser to exit', timeoutMs: 10_000 });

      writeFileSync(`${out}.stop`, '');
      const code0 = await Promise.race([pollerExit, new Promise((r) => setTimeout(() => r('still running after 15 s'), 15_000))]);
      expect(code0).toBe(0);
      const report = JSON.parse(readFileSync(out, 'utf8')) as { polls: number; ms: number; seen: string[]; tried: Record<string, string> };
      if (process.env.KH_RACE_FIGURES) console.log(`poller: ${report.polls} polls in ${report.ms} ms, ${report.seen.length} command lines`);
      const token = readFileSync(join(w.home, 'review.token'), 'utf8').trim();

      expect(report.seen.some((c) => c.includes(opened)), "the poller read the browser's command line").toBe(true);
      expect(report.polls, 'it polled all along').toBeGreaterThan(100);
      for (const c of report.seen) {
        expect(c, 'a command line with the code').not.toContain(code);
        expect(c, 'a command line with the token').not.toContain(token);
        expect(c).not.toMatch(/[?&](login|token|code)=/);
      }
      expect(Object.keys(report.tried), 'it tried the file it saw').toContain(file);
      // Every file kingshand handed out is closed to it. Other programs' file:// arguments on a
      // busy machine (a Node loader, another suite) are not kingshand's and are not judged here.
      const ours = Object.entries(report.tried).filter(([path]) => decodeURIComponent(path).startsWith(`${w.root}/`));
      expect(ours.map(([path]) => path)).toContain(file);
      for (const [path, outcome] of ours) expect(outcome, path).toBe('EACCES');
    } finally {
      if (poller.exitCode === null) {
        writeFileSync(`${out}.stop`, '');
        await Promise.race([pollerExit, new Promise((r) => setTimeout(r, 5000))]);
        if (poller.exitCode === null && poller.pid) process.kill(poller.pid);
      }
    }
  }, 90_000);
});
