/**
 * Where one parse + analyse of a 120x40 screen spends its time: runs the bench's ANSI reading
 * (the working capture) in a loop under V8's sampling profiler (node:inspector, in process) and
 * prints the top functions and files by self time. Not part of `npm run bench`.
 * Run: `npx tsx bench/profile-analysis.ts [readings=40000] [ansi|plain]`.
 */
import { Session } from 'node:inspector/promises';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analyseScreen, parseAnsi, parsePlain } from '../io/screen/index.ts';
import { printSelfTime, type CpuProfile } from './lib/cpu-profile.ts';

const readings = Number(process.argv[2] ?? 40_000);
const ansi = (process.argv[3] ?? 'ansi') === 'ansi';
const base = '../tests/fixtures/claude-code/2.1.332/05c-working-tool-running';
const text = readFileSync(fileURLToPath(new URL(`${base}${ansi ? '.ansi.txt' : '.txt'}`, import.meta.url)), 'utf8');
const opts = { cols: 120, rows: 40 };
const read = () => analyseScreen(ansi ? parseAnsi(text, opts) : parsePlain(text, opts));
for (let i = 0; i < 2_000; i++) read(); // warm up: profile optimised code, as the daemon runs it

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
const cpu0 = process.cpuUsage();
for (let i = 0; i < readings; i++) read();
const cpu = process.cpuUsage(cpu0);
const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
session.disconnect();

const cpuS = (cpu.user + cpu.system) / 1e6;
console.log(`${readings} ${ansi ? 'ansi' : 'plain'} readings in ${cpuS.toFixed(2)} CPU-s (profiler on): ${Math.round(readings / cpuS)} readings/s, ${((cpuS * 1e6) / readings).toFixed(1)} µs each`);
printSelfTime(profile, 15, 10);
