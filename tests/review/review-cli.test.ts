/**
 * `hand review` against a real daemon: the URL it prints reaches the page; the page refuses to
 * bind a non-loopback address unless that is configured explicitly, and says how.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { useCliWorld } from '../helpers/cli-world.ts';
import { openerArgv } from '../../cli/commands/review.ts';

const makeWorld = useCliWorld();

describe('hand review', () => {
  it('prints a 127.0.0.1 URL whose token opens the page; the port is recorded in the state directory', async () => {
    const world = await makeWorld('review-cli');
    const r = await world.hand(['review']);
    expect(r.code, r.stderr).toBe(0);
    const url = new URL(r.stdout.split('\n')[0]!);
    expect(url.hostname).toBe('127.0.0.1');
    const recorded = JSON.parse(readFileSync(join(world.home, 'review.json'), 'utf8'));
    expect(recorded.port).toBe(Number(url.port));
    expect(recorded.url).not.toContain('token'); // the token lives only in its 0600 file
    expect(statSync(join(world.home, 'review.token')).mode & 0o777).toBe(0o600);
    const page = await fetch(url, { redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
    expect(page.headers.get('set-cookie'), 'the cookie is a session, never the token').not.toContain(url.searchParams.get('token'));
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses to bind a non-loopback address unless HAND_REVIEW_ALLOW_REMOTE=1', async () => {
    const world = await makeWorld('review-bind');
    // The daemon starts with the environment of the first command.
    const r = await world.hand(['review', '--json'], { env: { HAND_REVIEW_BIND: '0.0.0.0' } });
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('review-unavailable');
    expect(r.stderr).toMatch(/HAND_REVIEW_BIND=0\.0\.0\.0 is not a loopback address.*HAND_REVIEW_ALLOW_REMOTE=1/);
    expect((await world.hand(['status'])).code).toBe(0); // the daemon itself runs on
  });

  it('opens the browser with argv, never a shell string', () => {
    expect(openerArgv('http://127.0.0.1:1/?token=a b', 'linux')).toEqual(['xdg-open', ['http://127.0.0.1:1/?token=a b']]);
    expect(openerArgv('http://x/', 'darwin')).toEqual(['open', ['http://x/']]);
    expect(openerArgv('http://x/', 'linux', { HAND_BROWSER: '/opt/firefox/firefox' }), 'HAND_BROWSER names the browser').toEqual(['/opt/firefox/firefox', ['http://x/']]);
  });
});
