/**
 * Notifications against real HTTP servers on 127.0.0.1 (ntfy-shaped and webhook), a command
 * target (argv, JSON on stdin), a target that is down, one that is slow and one that answers
 * 500. Delivery state is in a real SQLite file: one delivery per event and target, retried with
 * backoff, and never sent twice across a restart (stores closed and reopened, a new notifier).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { makeWorkDb, type WorkDb } from './work-fixture.ts';
import { createTargetFile, makeTarget } from '../../actors/notify/targets.ts';
import { createNotifier, type Notifier } from '../../actors/notify/notifier.ts';
import type { Notification } from '../../actors/notify/senders.ts';
import { waitFor } from '../helpers/temp.ts';

interface Hit { headers: IncomingMessage['headers']; body: string; url: string }
interface TestServer { url: string; hits: Hit[]; port: number; close(): Promise<void> }

function serve(answer: (hit: Hit, n: number) => { status: number; delayMs?: number }, port = 0): Promise<TestServer> {
  const hits: Hit[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const hit = { headers: req.headers, body, url: req.url ?? '' };
      hits.push(hit);
      const a = answer(hit, hits.length);
      setTimeout(() => {
        res.statusCode = a.status;
        res.end('ok');
      }, a.delayMs ?? 0).unref();
    });
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const p = (server.address() as AddressInfo).port;
      resolve({
        url: `http://127.0.0.1:${p}`, hits, port: p,
        close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
      });
    });
  });
}

const n = (worker: string, condition = 'blocked'): Notification => ({
  worker, project: 'shop', condition, reason: `${worker} is blocked on permission and waits for you`, question: 'Allow rm -rf build?', lastLine: 'Do you want to proceed?', command: `hand read ${worker}`, at: new Date().toISOString(),
});

let db: WorkDb | null = null;
const servers: TestServer[] = [];
const notifiers: Notifier[] = [];
afterEach(async () => {
  for (const x of notifiers.splice(0)) x.stop();
  for (const s of servers.splice(0)) await s.close();
  db?.cleanup();
  db = null;
});

function setup(label: string, sendTimeoutMs = 2000) {
  db = makeWorkDb(label);
  const targets = createTargetFile(db.dir);
  const logs: Record<string, unknown>[] = [];
  const make = () => {
    const x = createNotifier({ store: db!.stores.notify, targets, log: (o, m) => logs.push({ ...o, m }), sendTimeoutMs });
    notifiers.push(x);
    x.start();
    return x;
  };
  return { targets, logs, make };
}

/** The test's receivers listen on 127.0.0.1: local on purpose, as hand notify add --allow-loopback says. */
const LOOPBACK = { allowLoopback: true };

/**
 * One target of each kind: an ntfy topic and a webhook answering 200, and a command that runs
 * `script` with the file it writes (in the test's directory) as its argument.
 */
async function oneTargetOfEachKind(label: string, script: string, outFile: string) {
  const { targets, make } = setup(label);
  const ntfy = await serve(() => ({ status: 200 }));
  const hook = await serve(() => ({ status: 200 }));
  servers.push(ntfy, hook);
  const out = join(db!.dir, outFile);
  targets.add(makeTarget('ntfy', [`${ntfy.url}/kh-topic`], Date.now(), LOOPBACK));
  targets.add(makeTarget('webhook', [`${hook.url}/hook`], Date.now(), LOOPBACK));
  targets.add(makeTarget('command', [process.execPath, '-e', script, out]));
  return { ntfy, hook, out, make };
}

describe('notifications', () => {
  it('ntfy gets Title, Priority and Tags headers; a webhook gets JSON; a command gets JSON on stdin (argv only)', async () => {
    const { ntfy, hook, out, make } = await oneTargetOfEachKind('notify-shapes', `require('fs').writeFileSync(process.argv[1], require('fs').readFileSync(0))`, 'from-command.json');
    const notifier = make();
    expect(notifier.notify('w1:blocked:1', n('w1'))).toBe(3);
    await waitFor(() => ntfy.hits.length === 1 && hook.hits.length === 1 && db!.stores.notify.recent().every((d) => d.state === 'delivered'), { what: 'three deliveries' });
    expect(ntfy.hits[0]!.url).toBe('/kh-topic');
    expect(ntfy.hits[0]!.headers).toMatchObject({ title: 'w1 (shop): blocked', priority: 'high', tags: 'warning' });
    expect(ntfy.hits[0]!.body).toContain('Q: Allow rm -rf build?');
    expect(ntfy.hits[0]!.body).toContain('→ hand read w1');
    expect(hook.hits[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(hook.hits[0]!.body)).toMatchObject({ worker: 'w1', project: 'shop', condition: 'blocked', question: 'Allow rm -rf build?', command: 'hand read w1' });
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ worker: 'w1', condition: 'blocked', command: 'hand read w1' });
  });

  it("a notification's answers reach every kind of target: ntfy buttons (three at most) and a Click link, the webhook's JSON, the command's environment", async () => {
    const dump = `const e = process.env; require('fs').writeFileSync(process.argv[1], JSON.stringify(Object.fromEntries(Object.entries(e).filter(([k]) => k.startsWith('HAND_')))))`;
    const { ntfy, hook, out, make } = await oneTargetOfEachKind('notify-actions', dump, 'command-env.json');
    const actions = [1, 2, 3, 4].map((i) => ({ kind: 'answer', label: `${i}. Option, "${i}"; x`, url: `https://phone.example/phone/w1/cap${i}`, method: 'POST' as const }));
    make().notify('w1:blocked:9', { ...n('w1'), actions, view: 'https://phone.example/phone/w1/view' });
    await waitFor(() => ntfy.hits.length === 1 && hook.hits.length === 1 && db!.stores.notify.recent().every((d) => d.state === 'delivered'), { what: 'three deliveries with actions' });
    expect(ntfy.hits[0]!.headers.click).toBe('https://phone.example/phone/w1/view');
    // Its separators are taken out of a label: a worker's words cannot add a button of their own.
    expect(ntfy.hits[0]!.headers.actions).toBe([1, 2, 3].map((i) => `http, "${i}. Option   ${i}   x", https://phone.example/phone/w1/cap${i}, method=POST, clear=true`).join('; '));
    expect(JSON.parse(hook.hits[0]!.body)).toMatchObject({ actions, view: 'https://phone.example/phone/w1/view' });
    const env = JSON.parse(readFileSync(out, 'utf8'));
    expect(env).toMatchObject({ HAND_ACTIONS: '4', HAND_ACTION_4_URL: 'https://phone.example/phone/w1/cap4', HAND_ACTION_1_METHOD: 'POST', HAND_VIEW_URL: 'https://phone.example/phone/w1/view' });
  });

  it('one notification per event and target: the same event queued twice is delivered once', async () => {
    const { targets, make } = setup('notify-once');
    const hook = await serve(() => ({ status: 200 }));
    servers.push(hook);
    targets.add(makeTarget('webhook', [hook.url], Date.now(), LOOPBACK));
    const notifier = make();
    expect(notifier.notify('w1:blocked:1', n('w1'))).toBe(1);
    expect(notifier.notify('w1:blocked:1', n('w1'))).toBe(0);
    await waitFor(() => db!.stores.notify.recent()[0]?.state === 'delivered', { what: 'the delivery' });
    expect(hook.hits).toHaveLength(1);
  });

  it('a target answering 500 is retried with backoff until it takes it, and shows as failing meanwhile', async () => {
    const { targets, make, logs } = setup('notify-500');
    const hook = await serve((_h, i) => ({ status: i < 3 ? 500 : 200 }));
    servers.push(hook);
    const t = targets.add(makeTarget('webhook', [`${hook.url}/h?token=SECRET-TOKEN`], Date.now(), LOOPBACK)).target;
    make().notify('w1:crashed:1', n('w1', 'crashed'));
    await waitFor(() => db!.stores.notify.problems()[0]?.lastError === 'HTTP 500', { what: 'the 500 recorded as a problem' });
    await waitFor(() => db!.stores.notify.recent()[0]?.state === 'delivered', { what: 'delivery after two 500s', timeoutMs: 10_000 });
    expect(hook.hits).toHaveLength(3);
    // Retries were spaced by the backoff (500 ms, then 1 s), not hammered.
    expect(db!.stores.notify.recent()[0]!.attempts).toBe(3);
    expect(JSON.stringify(logs)).not.toContain('SECRET-TOKEN');
    expect(logs.some((l) => l.target === t.id && l.error === 'HTTP 500')).toBe(true);
  });

  it('a slow target times out without blocking anything, and a target that is down is retried', async () => {
    const { targets, make } = setup('notify-slow-down', 300);
    const slow = await serve(() => ({ status: 200, delayMs: 5000 }));
    const down = await serve(() => ({ status: 200 }));
    servers.push(slow);
    await down.close();
    targets.add(makeTarget('webhook', [slow.url], Date.now(), LOOPBACK));
    targets.add(makeTarget('ntfy', [`${down.url}/topic`], Date.now(), LOOPBACK));
    const notifier = make();
    const t0 = performance.now();
    notifier.notify('w1:gate:1', n('w1', 'gate'));
    const tick = await new Promise<number>((r) => setImmediate(() => r(performance.now() - t0)));
    expect(tick).toBeLessThan(100);
    await waitFor(() => db!.stores.notify.problems().length === 2, { what: 'both targets recorded as failing' });
    const errors = db!.stores.notify.problems().map((p) => p.lastError).sort();
    expect(errors).toEqual(['ECONNREFUSED', 'no answer within 300 ms']);
    expect(db!.stores.notify.recent().every((d) => d.state === 'pending' && d.nextAt > Date.now() - 1000)).toBe(true);
  });

  it('a pending notification survives a restart and is delivered exactly once after it', async () => {
    const { targets, make } = setup('notify-restart');
    const first = await serve(() => ({ status: 200 }));
    const port = first.port;
    await first.close();
    targets.add(makeTarget('webhook', [`http://127.0.0.1:${port}/hook`], Date.now(), LOOPBACK));
    const before = make();
    before.notify('w1:parked:1', n('w1', 'parked'));
    await waitFor(() => db!.stores.notify.recent()[0]?.attempts === 1, { what: 'a failed first attempt' });
    before.stop();
    // Restart: the database is closed and opened again; a new notifier reads the queue.
    db!.reopen();
    const up = await serve(() => ({ status: 200 }), port);
    servers.push(up);
    const after = createNotifier({ store: db!.stores.notify, targets: createTargetFile(db!.dir), log: () => undefined });
    notifiers.push(after);
    after.start();
    await waitFor(() => db!.stores.notify.recent()[0]?.state === 'delivered', { what: 'delivery after the restart', timeoutMs: 10_000 });
    after.stop();
    db!.reopen();
    const again = createNotifier({ store: db!.stores.notify, targets: createTargetFile(db!.dir), log: () => undefined });
    notifiers.push(again);
    again.start();
    expect(again.notify('w1:parked:1', n('w1', 'parked'))).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(up.hits).toHaveLength(1);
  });

  it('targets are stored 0600 and shown only as scheme and host', async () => {
    const { targets } = setup('notify-secret');
    const t = targets.add(makeTarget('ntfy', ['https://ntfy.example.invalid/topic-abc?auth=TOKEN123'])).target;
    expect(statSync(targets.path).mode & 0o777).toBe(0o600);
    const { publicTarget } = await import('../../actors/notify/targets.ts');
    expect(JSON.stringify(publicTarget(t))).not.toMatch(/TOKEN123|topic-abc/);
    expect(() => makeTarget('ntfy', ['ftp://x'])).toThrow(/http or https/);
    expect(() => makeTarget('pager', ['x'])).toThrow(/unknown/);
  });
});

describe('hand doctor', () => {
  it('shows a failing target by id and error, never its URL', async () => {
    const { targets, make } = setup('notify-doctor');
    const gone = await serve(() => ({ status: 200 }));
    await gone.close();
    targets.add(makeTarget('webhook', [`${gone.url}/hook?token=DOCTOR-SECRET`], Date.now(), LOOPBACK));
    make().notify('w9:crashed:1', n('w9', 'crashed'));
    await waitFor(() => db!.stores.notify.problems().length === 1, { what: 'the failure recorded' });
    const { runDoctor } = await import('../../cli/commands/doctor.ts');
    const r = await runDoctor(db!.dir);
    const check = r.checks.find((c) => c.name === 'notifications');
    expect(check).toMatchObject({ ok: false, detail: expect.stringMatching(/webhook-[0-9a-f]{8}: 1 undelivered \(ECONNREFUSED\)/) });
    expect(JSON.stringify(r)).not.toContain('DOCTOR-SECRET');
  });
});
