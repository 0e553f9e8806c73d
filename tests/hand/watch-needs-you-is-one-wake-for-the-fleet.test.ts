/**
 * `hand watch --needs-you` is the Hand's one wake (issue 22): one event per need across the
 * fleet — a menu with its question and options quoted as the worker's words, a parked decision —
 * de-duplicated per worker and need (repaints are not new wakes), what already waits is sent
 * first to a watcher that starts late, and the stream ends when the daemon stops.
 */
import { describe, expect, it } from 'vitest';
import { useDaemonWorld } from '../helpers/daemon-world.ts';

const world = useDaemonWorld();

function collector() {
  const events: any[] = [];
  const waiters: { accept: (e: any[]) => boolean; resolve: () => void }[] = [];
  return {
    events,
    push(e: unknown) {
      events.push(e);
      for (const w of [...waiters]) if (w.accept(events)) w.resolve();
    },
    until(accept: (e: any[]) => boolean, what: string, ms = 45_000): Promise<void> {
      if (accept(events)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}; events: ${JSON.stringify(events).slice(0, 1500)}`)), ms);
        waiters.push({ accept, resolve: () => { clearTimeout(t); resolve(); } });
      });
    },
  };
}

describe('hand watch --needs-you', () => {
  it('wakes once per need across workers, quotes the question as the worker\'s words, sends what is pending first and ends with the daemon', async () => {
    const w = await world('watch-needs-you', { annexYolo: true });
    const early = collector();
    const earlyDone = w.call('watch', { needsYou: true, timeoutMs: 120_000 }, { onProgress: (p) => early.push(p) }).then(() => 'answered', (err: unknown) => err);
    await w.dispatch('q1', 'MODE:ask');
    await w.dispatch('p1', 'MODE:park');
    await early.until((e) => e.some((x) => x.worker === 'q1' && x.need === 'blocked') && e.some((x) => x.worker === 'p1' && x.need === 'parked'), 'a blocked event for q1 and a parked one for p1');
    const blocked = early.events.find((x) => x.worker === 'q1' && x.need === 'blocked');
    expect(blocked.question, JSON.stringify(blocked)).toBeTruthy();
    expect(blocked.options.length, JSON.stringify(blocked)).toBeGreaterThan(1);
    expect(blocked.line).toContain(`worker q1 wrote: "`);
    // the person's choice goes back through hand answer, against the dialog the line quoted
    expect(blocked.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(blocked.line).toContain(`hand answer q1 <n> --fingerprint ${blocked.fingerprint}`);
    const parked = early.events.find((x) => x.worker === 'p1' && x.need === 'parked');
    expect(parked.line).toContain('hand decide');

    // A watcher that starts now hears both at once: pending first.
    const late = collector();
    const lateDone = w.call('watch', { needsYou: true, timeoutMs: 120_000 }, { onProgress: (p) => late.push(p) }).then(() => 'answered', (err: unknown) => err);
    await late.until((e) => e.length >= 2, 'the two pending needs', 10_000);
    expect(late.events.map((e) => `${e.worker}:${e.need}`).sort()).toEqual(['p1:parked', 'q1:blocked']);

    // Repaints of the same menu are not new wakes: each (worker, need) was sent once.
    const keys = early.events.map((e) => `${e.worker}:${e.need}`);
    expect(new Set(keys).size, keys.join(' ')).toBe(keys.length);

    // The daemon stops: both streams end (the CLI exits 0 and the Monitor re-arms it).
    await w.stop();
    expect(await earlyDone).toMatchObject({ exitCode: 3 });
    expect(await lateDone).toMatchObject({ exitCode: 3 });
  });
});
