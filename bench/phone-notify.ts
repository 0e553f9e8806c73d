/**
 * Issue 42's figures, in one run with one daemon and one mock worker, the trials interleaved so a
 * machine that slows during the run slows both: (1) menu drawn → ntfy notification received on
 * 127.0.0.1 *with its actions* (a public URL set: three capabilities signed for the answers and
 * one for the view link), beside (2) the plain notification (public URL off: no actions), the
 * path issue 13 measured; and (3) a phone's tap → its answer's response (the capability checked,
 * the keys pressed one per call with the screen read back, the journal row written).
 */
import { request } from 'node:http';
import { startLoopbackSink } from './lib/loopback-sink.ts';
import type { BenchResult } from './types.ts';
import { makeWorld } from './lib/world.ts';
import { makeDaemonWorld } from './lib/daemon.ts';
import { awaitEvent } from './lib/mock-events.ts';
import { nowMs, summarise } from './lib/stats.ts';

interface Arrival { t: number; title: string; actions: string | null }

/** A POST to the page on 127.0.0.1 carrying the public Host, as the person's tunnel does; resolves with the status. */
function tap(url: string, port: number): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: u.pathname, headers: { host: u.host } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

export async function run(opts: { trials: number; log?: (m: string) => void }): Promise<BenchResult[]> {
  const world = makeWorld('phone');
  const arrivals: Arrival[] = [];
  const ntfyPort = await startLoopbackSink('ntfy double', (_body, headers) => {
    arrivals.push({ t: nowMs(), title: String(headers.title ?? ''), actions: typeof headers.actions === 'string' ? headers.actions : null });
  });
  const d = await makeDaemonWorld(world);
  await d.rpc('notify.add', { kind: 'ntfy', args: [`http://127.0.0.1:${ntfyPort}/bench`], allowLoopback: true });
  const pagePort = (await d.rpc('review', {})).port;
  const publicUrl = `http://phone.bench:${pagePort}`;

  const id = 'phone-tmux';
  const log = world.eventLog(id);
  await d.dispatch(id, 'tmux', world.workerEnv({ KH_MOCK_EVENT_LOG: log }));
  const withActions: number[] = [];
  const plain: number[] = [];
  const taps: number[] = [];
  for (let i = 0; i < opts.trials * 2; i++) {
    const actions = i % 2 === 0;
    await d.rpc('review', { publicUrl: actions ? publicUrl : 'off' });
    const seen = arrivals.length;
    const sentAt = nowMs();
    await d.rpc('send', { id, text: `MODE:ask phone question ${i}` });
    const menu = await awaitEvent(log, 'menu-drawn', sentAt);
    const start = Date.now();
    let hit: Arrival | undefined;
    while (!(hit = arrivals.slice(seen).find((a) => a.title.startsWith(id) && a.title.endsWith(': blocked')))) {
      if (Date.now() - start > 20_000) throw new Error(`no blocked notification for ${id} within 20 s (trial ${i})`);
      await new Promise((r) => setTimeout(r, 2));
    }
    if (actions !== (hit.actions !== null)) throw new Error(`trial ${i}: expected ${actions ? 'actions' : 'no actions'}, got ${hit.actions}`);
    (actions ? withActions : plain).push(hit.t - menu.t);
    if (actions) {
      const url = /^http, "[^"]*", (\S+), method=POST/.exec(hit.actions!)![1]!;
      const t0 = nowMs();
      const status = await tap(url, pagePort);
      if (status !== 200) throw new Error(`trial ${i}: the tap answered ${status}`);
      taps.push(nowMs() - t0);
    } else {
      await d.rpc('keys', { id, key: 'enter' });
    }
    const settled = await d.rpc('wait', { id, until: 'settled', timeoutMs: 30_000 });
    if (settled.reason !== 'settled') throw new Error(`worker ${id} did not settle after the answer: ${JSON.stringify(settled)}`);
  }
  opts.log?.(`phone: ${opts.trials} trials of each done`);
  return [
    summarise('menu drawn (mock, tmux) → ntfy notification with actions received (3 answers + view, signed)', 'ms', withActions, 200, 'ntfy double on 127.0.0.1; public URL set'),
    summarise('menu drawn (mock, tmux) → plain ntfy notification received (no public URL), same run', 'ms', plain, 200, 'interleaved with the row above'),
    summarise("a phone's tap (POST the capability) → its answer's response", 'ms', taps, null, 'check, keys one per call with the screen read back, journal row'),
  ];
}
