/**
 * End to end through the real CLI and daemon (tmux, the mock agent, a real git repository and
 * SQLite): queued items with dependencies, a worker that parks on a `Waiting on:` question,
 * its open decision, away mode and a notification pending for a target that is down — then the
 * daemon is SIGKILLed and started again. Everything is still there and correct, the pending
 * notification is delivered exactly once, and `hand decide` brings the answer back so the worker
 * continues to done.
 */
import { socketRefuses } from '../helpers/processes.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { annexYoloShop, closeServer, handOk, listenWebhook, serverPort, useCliWorld, writeParkBrief } from '../helpers/cli-world.ts';
import { readLockHolder } from '../../persistence/home-lock.ts';
import { isProcessAlive } from '../helpers/processes.ts';
import { waitFor } from '../helpers/temp.ts';

const makeWorld = useCliWorld({ daemonProcess: true });
let server: Server | null = null;
afterEach(async () => {
  if (server) await closeServer(server);
  server = null;
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = serverPort(s);
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('work that outlives the daemon', () => {
  it('items, dependencies, an open decision, away mode and a pending notification survive SIGKILL; the answer brings the worker to done', async () => {
    const w = await makeWorld('work-restart');
    const ok = handOk(w);
    await annexYoloShop(ok, w);
    await ok(['backlog', 'add', 'base', '--project', 'shop', 'Lay the base']);
    await ok(['backlog', 'add', 'top', '--project', 'shop', 'Build on the base']);
    await ok(['backlog', 'block', 'top', '--by', 'base']);
    const parkBrief = writeParkBrief(w, 'park-brief');
    await ok(['backlog', 'add', 'park', '--project', 'shop', '--brief', parkBrief, 'Needs a decision']);

    // Refused with the blockers named, and nothing changed.
    const blocked = await w.hand(['dispatch', '--item', 'top', '--agent', 'mock', '--json']);
    expect(blocked.code).toBe(1);
    expect(blocked.json.error).toMatchObject({ code: 'item-blocked', blockedBy: ['base'] });
    expect((await ok(['backlog', 'show', 'top'])).state).toBe('queued');
    expect(await ok(['status'])).toEqual([]);

    // A webhook that is down: the parked notification stays pending.
    const port = await freePort();
    await ok(['notify', 'add', 'webhook', `http://127.0.0.1:${port}/hook?token=SECRET`, '--allow-loopback']);

    const d = await ok(['dispatch', '--item', 'park', '--agent', 'mock']);
    expect(d).toMatchObject({ id: 'park', item: 'park' });
    expect(d.warnings[0]).toMatch(/usage unknown.*fail open/);
    expect((await ok(['backlog', 'show', 'park'])).state).toBe('in-flight');
    const settled = await w.hand(['wait', 'park', '--until', 'settled', '--timeout', '30s', '--json']);
    expect(settled.code, settled.stdout).toBe(0);
    const [decision] = await waitFor(async () => {
      const r = await ok(['decisions']);
      return r.length === 1 ? r : undefined;
    }, { what: 'the parked worker\'s decision record' });
    expect(decision).toMatchObject({ worker: 'park', state: 'open', question: 'Which database should the mock project use?', options: ['SQLite', 'Postgres'] });
    const key = decision.key as string;
    const row = (await ok(['status', 'park']))[0];
    expect(row).toMatchObject({ stage: 'parked', item: 'park', decision: { key, state: 'open' } });

    // A parked worker is never torn down or landed while its decision is open.
    for (const args of [['stop', 'park'], ['land', 'park'], ['approve', 'park']]) {
      const r = await w.hand([...args, '--json']);
      expect(r.code).toBe(1);
      expect(r.json.error).toMatchObject({ code: 'worker-parked', decision: key });
    }

    await ok(['afk', 'on', '--note', 'lunch']);
    const held = await w.hand(['dispatch', '--item', 'base', '--agent', 'mock', '--json']);
    expect(held.json.error.code).toBe('away-holds-the-fleet');
    await waitFor(async () => (await ok(['notify', 'list']))[0].failing !== null, { what: 'the down target recorded as failing' });

    // SIGKILL the daemon, bring the target up, start again.
    const holder = readLockHolder(w.home)!;
    process.kill(holder.pid, 'SIGKILL');
    await waitFor(() => !isProcessAlive(holder.pid), { what: 'the killed daemon to go' });
    await socketRefuses(join(w.home, 'hand.sock'));
    const hits: any[] = [];
    server = await listenWebhook(hits, port);
    await ok(['daemon', 'start']);

    expect((await ok(['decisions'])).map((x: any) => x.key)).toEqual([key]);
    // Everything shows in hand status: the worker's item and decision, the backlog, away mode.
    const all = await ok(['status', '--work']);
    expect(all.workers[0]).toMatchObject({ id: 'park', item: 'park', decision: { key, state: 'open' } });
    expect(all).toMatchObject({ backlog: { queued: 2, ready: 1, inFlight: 1 }, decisions: [{ key }], away: { active: true, note: 'lunch' } });
    const text = await w.hand(['status']);
    expect(text.stdout).toContain(`${key}: worker park wrote: "Which database should the mock project use?"`);
    expect(text.stdout).toMatch(/away since .* \(lunch\)/);
    expect(await ok(['afk', 'status'])).toMatchObject({ away: true, note: 'lunch' });
    expect((await ok(['backlog', 'ready'])).map((i: any) => i.id)).toEqual(['base']);
    expect((await ok(['backlog', 'show', 'top'])).waitingOn).toEqual(['base']);
    await waitFor(() => hits.length >= 1, { what: 'the pending notification after the restart', timeoutMs: 20_000 });
    // The notification carries the worker's words quoted and attributed (issue 37).
    expect(hits[0]).toMatchObject({ worker: 'park', project: 'shop', condition: 'parked', question: 'worker park wrote: "Which database should the mock project use?"', command: `hand decide ${key} "<answer>"` });

    // The answer goes back into the live worker, which carries on to done.
    const answer = await ok(['decide', key, 'SQLite']);
    expect(answer).toMatchObject({ state: 'answered', delivery: 'sent' });
    await waitFor(async () => (await ok(['status', 'park']))[0].stage === 'done', { what: 'the worker to reach done after the answer', timeoutMs: 30_000 });
    expect(readFileSync(d.reportPath, 'utf8')).toContain('using SQLite as decided');
    expect((await ok(['decisions', '--all']))[0]).toMatchObject({ key, state: 'answered', delivery: 'sent' });
    // Its pointer stays: the worker still names the (answered) decision.
    expect((await ok(['status', 'park']))[0].decision).toMatchObject({ key, state: 'answered' });

    const back = await ok(['afk', 'off']);
    // Done with its report: it waits for the person's landing, it is not still running.
    expect(back.account.readyToLand.map((r: any) => r.worker)).toEqual(['park']);
    expect(back.account.stillRunning).toEqual([]);
    expect(back.account.entries.some((e: any) => e.kind === 'decided')).toBe(true);
    expect(back.account.entries.some((e: any) => e.kind === 'done' && e.worker === 'park')).toBe(true);
    // One notification for that worker and condition, across the restart.
    expect(hits.filter((h) => h.worker === 'park' && h.condition === 'parked')).toHaveLength(1);
    expect(readFileSync(join(w.home, 'daemon.log'), 'utf8')).not.toContain('SECRET');
  }, 300_000);
});
