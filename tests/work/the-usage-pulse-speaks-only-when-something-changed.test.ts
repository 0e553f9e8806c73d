/**
 * Rule (vigil, workflow §1.9, issue 40): the pulse prints one line when the fleet moved or usage
 * crossed into another ten-point band since the last reading, and nothing otherwise; the first
 * reading is the baseline. `hand watch --needs-you --pulse <d>` prints it beside the wake lines,
 * from the daemon's own status and usage answers (a real daemon, a mock worker, a usage source
 * command whose reading the test moves).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pulseLine, type PulseReading } from '../../contract/pulse-words.ts';
import { useCliWorld } from '../helpers/cli-world.ts';
import { HAND_BIN } from '../helpers/hand-process.ts';
import { until } from '../helpers/temp.ts';

const makeWorld = useCliWorld();
const reading = (fleet: Record<string, number>, percent: number | null): PulseReading => ({ fleet, usage: percent === null ? null : { window: 'session', percent } });

describe('the usage pulse speaks only when something changed', () => {
  it('baseline silent; the same fleet and band silent; a move or a band crossed says so', () => {
    expect(pulseLine(null, reading({ working: 2 }, 41))).toBeNull();
    expect(pulseLine(reading({ working: 2 }, 41), reading({ working: 2 }, 49.9))).toBeNull();
    expect(pulseLine(reading({ working: 2 }, 41), reading({ working: 1, blocked: 1 }, 44))).toBe('pulse: the fleet moved - fleet: 1 blocked, 1 working; usage 44% of the session window');
    expect(pulseLine(reading({ working: 2 }, 49), reading({ working: 2 }, 50))).toBe('pulse: usage crossed into the 50s - fleet: 2 working; usage 50% of the session window');
    expect(pulseLine(reading({ working: 1 }, 62), reading({}, null))).toBe('pulse: the fleet moved; usage can no longer be read - fleet: no live worker; usage unknown');
    // Zero counts are no workers: the same fleet said two ways is no move.
    expect(pulseLine(reading({ working: 1, blocked: 0 }, 10), reading({ working: 1 }, 10))).toBeNull();
  });

  it('hand watch --needs-you --pulse 1s: one pulse line when a worker starts, one when usage crosses a band, none in between', async () => {
    const w = await makeWorld('pulse');
    const usageFile = join(w.root, 'usage.json');
    const setUsage = (percent: number) => writeFileSync(usageFile, JSON.stringify({ windows: [{ id: 'five_hour', window: 'session', percent, resets_at: '2099-01-01T00:00:00Z' }] }));
    // Each reading of the source leaves a mark: the ticks are counted, not slept through.
    const ticks = join(w.root, 'ticks');
    writeFileSync(ticks, '');
    setUsage(41);
    const source = `const fs = require('fs'); fs.appendFileSync(${JSON.stringify(ticks)}, 'x'); process.stdout.write(fs.readFileSync(${JSON.stringify(usageFile)}))`;
    expect((await w.hand(['usage', 'source', process.execPath, '-e', source, '--json'])).code).toBe(0);
    expect((await w.hand(['usage', '--json'])).json.nearest).toMatchObject({ percent: 41 });
    expect((await w.hand(['annex', w.repo, '--yolo', '--json'])).code).toBe(0);

    const out: string[] = [];
    const child = spawn(process.execPath, [HAND_BIN, '--home', w.home, 'watch', '--needs-you', '--pulse', '1s', '--timeout', '60s', '--json'], { env: { ...process.env, ...w.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      out.push(...lines.filter(Boolean));
    });
    try {
      const pulses = () => out.map((l) => JSON.parse(l) as { pulse?: boolean; line: string; fleet: Record<string, number> }).filter((e) => e.pulse);
      // Three readings: the baseline, then twice nothing changed.
      const read0 = readFileSync(ticks, 'utf8').length;
      await until('three pulse readings of the usage source', async () => readFileSync(ticks, 'utf8').length - read0, (n) => n >= 3, 20_000);
      expect(pulses(), 'nothing changed: no pulse').toEqual([]);
      const r = await w.hand(['dispatch', 'p1', '--repo', w.repo, '--brief', w.brief('p1', 'MODE:hang keep going'), '--agent', 'mock', '--json']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      await until('a pulse saying the fleet moved', async () => pulses(), (p) => p.some((e) => /the fleet moved/.test(e.line)), 20_000);
      const afterMove = pulses().length;
      setUsage(63);
      const crossed = await until('a pulse saying usage crossed into the 60s', async () => pulses(), (p) => p.some((e) => /usage crossed into the 60s/.test(e.line)), 20_000);
      expect(crossed.at(-1)!.line).toMatch(/usage 63% of the session window$/);
      expect(crossed.length - afterMove, 'one line for the crossing').toBe(1);
    } finally {
      child.kill('SIGTERM');
    }
  }, 90_000);
});
