// Ad-hoc runner while developing: npx tsx bench/lib/try-ready.ts [trials] [items]
// `hand backlog ready --json` with N items beside `node -e ''`, interleaved so both see the same machine.
import { makeWorld } from './world.ts';
import { makeDaemonWorld, HAND_BIN, runProcess } from './daemon.ts';
import { runCleanups } from './cleanup.ts';
import { ensureBundle } from './bundle.ts';

const trials = Number(process.argv[2] ?? 20);
const items = Number(process.argv[3] ?? 1000);
try {
  const d = await makeDaemonWorld(makeWorld('try-ready'));
  for (let i = 0; i < items; i++) {
    await d.rpc('backlog.add', { id: `item-${i}`, project: 'bench', title: `Backlog item number ${i}` });
    if (i % 3 === 2) await d.rpc('backlog.block', { id: `item-${i}`, by: `item-${i - 1}` });
    if (i % 10 === 5) await d.rpc('backlog.hold', { id: `item-${i}`, reason: 'waits on a vendor', kind: 'external' });
  }
  ensureBundle(console.log);
  const bare: number[] = [];
  const ready: number[] = [];
  for (let i = 0; i < trials; i++) {
    const b = await runProcess([process.execPath, '-e', ''], d.env);
    bare.push(b.endedAt - b.startedAt);
    const r = await runProcess([process.execPath, HAND_BIN, '--home', d.home, 'backlog', 'ready', '--json'], d.env);
    if (r.code !== 0) throw new Error(r.stderr);
    ready.push(r.endedAt - r.startedAt);
  }
  const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`node -e '' p50 ${p50(bare).toFixed(1)} ms · backlog ready p50 ${p50(ready).toFixed(1)} ms · ratio ${(p50(ready) / p50(bare)).toFixed(2)}×`);
} finally {
  await runCleanups(console.error);
}
