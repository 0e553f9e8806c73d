// Ad-hoc (issue 46): where a question waits at N streaming panes, with no daemon: one tmux server,
// N mock agents spinning (MODE:hang), one probe; a bare control client (what the daemon holds) hears
// every pane. Times: menu drawn → its %output heard; a capture-pane's round trip on that client; and
// the same round trip on a second client that asked for no output (TRY_READER=1).
// npx tsx bench/lib/try-tmux-queue.ts [panes=200] [trials=10]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TmuxControlClient } from '../../io/terminal/tmux/control-client.ts';
import { awaitEvent } from './mock-events.ts';
import { percentile } from './stats.ts';

const n = Number(process.argv[2] ?? 200);
const trials = Number(process.argv[3] ?? 10);
const root = mkdtempSync(join(tmpdir(), 'kh-bench-tq-'));
const sock = join(root, 'tmux.sock');
const ctx = { bin: 'tmux', socketPath: sock };
const MOCK = fileURLToPath(new URL('../../bin/mock-agent.js', import.meta.url));
const tmux = (...args: string[]) => execFileSync('tmux', ['-S', sock, ...args], { encoding: 'utf8' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = join(root, 'probe.jsonl');
const env = (extra: string) => `env KH_MOCK_TICK_MS=100 KH_MOCK_REPLY_MS=300 HOME=${root} ${extra}`;
try {
  tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'mon', '-x', '120', '-y', '40', `${env(`KH_MOCK_EVENT_LOG=${log}`)} node ${MOCK} --skip-trust`);
  const probe = tmux('display-message', '-p', '-t', 'mon', '#{pane_id}').trim();
  for (let i = 0; i < n; i++) tmux('new-window', '-d', '-t', 'mon', `${env('')} node ${MOCK} --skip-trust 'MODE:hang stream'`);
  console.error('panes made'); await sleep(Math.max(5000, n * 40));
  let heard = 0;
  let bytes = 0;
  const outputs: Array<{ t: number; menu: boolean }> = [];
  const client = await TmuxControlClient.open(ctx, 'mon', {
    onOutput: (p) => void heard++,
    onOutputText: (_p, text) => outputs.push({ t: performance.timeOrigin + performance.now(), menu: text.includes('Postgres') }),
    onSubscription: () => {},
    onClose: () => {},
  });
  client.textPane = probe;
  console.error('client attached');
  const flags = process.env.TRY_FLAGS;
  if (flags) await client.command(`refresh-client -f '${flags}'`);
  const reader = process.env.TRY_READER ? await TmuxControlClient.open(ctx, 'mon', { onOutput: () => {}, onSubscription: () => {}, onClose: () => {} }) : null;
  if (reader) await reader.command(`refresh-client -f no-output`);
  console.error('reader attached');
  const rtt = async (c: TmuxControlClient) => {
    const t0 = performance.now();
    await c.command(`capture-pane -p -e -t ${probe}`);
    return performance.now() - t0;
  };
  await sleep(2000);
  const h0 = heard;
  const r0 = client.received;
  await sleep(3000);
  console.log(`heard ${((heard - h0) / 3).toFixed(0)} %output/s in ${((client.received - r0) / 3).toFixed(0)} chunks/s`);
  const heardLat: number[] = [];
  const rttMain: number[] = [];
  const rttReader: number[] = [];
  for (let i = 0; i < trials; i++) {
    const sent = performance.timeOrigin + performance.now();
    tmux('send-keys', '-t', probe, '-l', `MODE:ask probe ${i}`);
    await sleep(100);
    tmux('send-keys', '-t', probe, 'Enter');
    const menu = await awaitEvent(log, 'menu-drawn', sent);
    for (let k = 0; k < 400 && !outputs.some((o) => o.menu && o.t >= menu.t); k++) await sleep(5);
    const o = outputs.find((x) => x.menu && x.t >= menu.t);
    heardLat.push(o ? o.t - menu.t : NaN);
    rttMain.push(await rtt(client));
    if (reader) rttReader.push(await rtt(reader));
    tmux('send-keys', '-t', probe, 'Enter');
    await sleep(800);
  }
  const f = (xs: number[]) => `p50 ${percentile(xs, 50).toFixed(0)} p95 ${percentile(xs, 95).toFixed(0)} ms [${xs.map((x) => x.toFixed(0)).join(' ')}]`;
  console.log(`menu drawn → %output heard: ${f(heardLat)}`);
  console.log(`capture-pane round trip, output client: ${f(rttMain)}`);
  if (reader) console.log(`capture-pane round trip, no-output client: ${f(rttReader)}`);
  const spid = Number(tmux('display-message', '-p', '#{pid}').trim());
  const st = () => { const s = execFileSync('cat', [`/proc/${spid}/stat`], { encoding: 'utf8' }); const f = s.slice(s.lastIndexOf(')') + 2).split(' '); return Number(f[11]) + Number(f[12]); };
  const a = st(); await sleep(3000); console.log(`tmux server ${((st() - a) / 3).toFixed(0)} % of a core`);
  await client.close();
  await reader?.close();
} finally {
  try { tmux('kill-server'); } catch {}
  rmSync(root, { recursive: true, force: true });
}
