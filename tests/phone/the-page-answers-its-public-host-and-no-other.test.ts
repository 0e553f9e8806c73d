/**
 * `hand review --public-url` (issue 42 item 1): the address the person's own tunnel reaches the
 * page by is stored (0600) and the page answers a request whose Host is that host as it answers a
 * loopback one — sign-in, pages, and state-changing requests from its https Origin — while any
 * other Host is refused (DNS rebinding stays refused), and `off` takes it back. The daemon still
 * listens on 127.0.0.1 only: the "phone" here is a second client on loopback carrying the
 * tunnel's Host, as the tunnel does. On the old code the public Host was refused like any other.
 */
import { describe, expect, it } from 'vitest';
import { useWorldForAll } from '../helpers/cleanups.ts';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { phoneRequest } from '../helpers/phone-client.ts';
import { PUBLIC_URL_FILE } from '../../actors/phone/public-url.ts';
import { HAND_CALLER_ENV } from '../../contract/hand-caller.ts';

const PUBLIC = 'laptop.tailnet-of-the-person.test';
let world: CliWorld;
useWorldForAll(() => makeCliWorld('public-url'), (made) => {
  world = made;
});

describe('the page answers its public host and no other', () => {
  it('stores the public URL, answers its Host (and its https Origin), refuses any other Host, and forgets it on off', async () => {
    const bad = await world.hand(['review', '--public-url', 'ftp://elsewhere.test', '--json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--public-url needs https://');
    const withPath = await world.hand(['review', '--public-url', `https://${PUBLIC}/kingshand?x=1`, '--json']);
    expect(withPath.stderr).toContain("the tunnel's base only");

    const set = await world.hand(['review', '--public-url', `https://${PUBLIC}/`, '--json']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.json.publicUrl).toBe(`https://${PUBLIC}`);
    expect(set.json.host).toBe('127.0.0.1');
    expect(statSync(join(world.home, PUBLIC_URL_FILE)).mode & 0o777).toBe(0o600);
    const port = set.json.port as number;
    const token = new URL(set.json.url as string).searchParams.get('token')!;

    // Through the tunnel: the Host is the public one.
    const signIn = await phoneRequest(`https://${PUBLIC}/?token=${token}`, { port, method: 'GET' });
    expect(signIn.status, signIn.body).toBe(303);
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    const fleet = await phoneRequest(`https://${PUBLIC}/`, { port, method: 'GET', headers: { cookie } });
    expect(fleet.status).toBe(200);
    const csrf = /<meta name="hand-token" content="([^"]*)">/.exec(fleet.body)![1]!;
    // A state-changing request from the public https origin passes the door (the handler answers: no such worker).
    const post = (origin: string) => phoneRequest(`https://${PUBLIC}/api/stop`, { port, headers: { cookie, origin, 'x-hand-token': csrf, 'content-type': 'application/json', 'content-length': '0' } });
    const fromPublic = await post(`https://${PUBLIC}`);
    expect(fromPublic.status, fromPublic.body).not.toBe(403);
    const fromElsewhere = await post('https://evil.test');
    expect(fromElsewhere.status).toBe(403);
    expect(fromElsewhere.json.error.message).toContain('foreign Origin');

    // DNS rebinding: a name the person never configured, pointed at 127.0.0.1.
    for (const host of ['evil.test', `${PUBLIC}.evil.test`, `evil.test:${port}`]) {
      const r = await phoneRequest(`https://${PUBLIC}/`, { port, method: 'GET', host, headers: { cookie } });
      expect(r.status, host).toBe(403);
      expect(r.body).toContain('unexpected Host');
    }

    const off = await world.hand(['review', '--public-url', 'off', '--json']);
    expect(off.json.publicUrl).toBeNull();
    const after = await phoneRequest(`https://${PUBLIC}/`, { port, method: 'GET', headers: { cookie } });
    expect(after.status).toBe(403);
  }, 60_000);

  it("setting it is the person's own: asked by the Hand, it is refused naming the command, and the Hand may still read the page's address", async () => {
    // The mark the kit puts on the Hand's shell and its MCP server (the in-process CLI reads it from here).
    process.env[HAND_CALLER_ENV] = 'hand';
    try {
      const refused = await world.hand(['review', '--public-url', `https://${PUBLIC}`, '--json']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("review publicUrl is the person's own setting, never the Hand's");
      expect(refused.stderr).toContain('hand review --public-url <url>|off');
      const read = await world.hand(['review', '--json']);
      expect(read.code, read.stderr).toBe(0);
      expect(read.json.publicUrl).toBeNull();
    } finally {
      delete process.env[HAND_CALLER_ENV];
    }
  });
});
