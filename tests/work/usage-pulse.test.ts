/**
 * The usage pulse, built against recorded outputs (tests/fixtures/usage): the nearer of the
 * session and weekly windows is shown, other windows are ignored, a past reset discards its
 * window; dispatch refuses at >= 90 % on a real reading and warns-and-proceeds without one.
 */
import type { DispatchAnswer, DispatchParams } from '../../contract/methods.ts';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseUsage, readUsage, usageLine, usageSourceFile } from '../../actors/usage/usage.ts';
import { crossRules, dispatchUnderRules } from '../../daemon/cross-rules.ts';
import { useWorkDb } from './work-fixture.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/usage/${name}`, import.meta.url));
const text = (name: string) => readFileSync(fixture(name), 'utf8');

const workDb = useWorkDb();

describe('usage pulse', () => {
  it('shows the nearer of the session and weekly windows and ignores the others', () => {
    const q = parseUsage(text('quota-axi.json'));
    expect(q.nearest).toMatchObject({ window: 'weekly', percent: 71.5 });
    expect(q.ignored).toEqual(['spend_cap']);
    expect(usageLine({ ...q, source: 'x' })).toBe('72% used (weekly, sam@example.invalid, resets 2099-01-03T00:00:00Z)');
    const c = parseUsage(text('claude-usage-endpoint.json'));
    expect(c.nearest).toMatchObject({ window: 'session', percent: 93 });
    expect(c.ignored).toEqual(['seven_day_opus']);
  });

  it('a window whose reset is already past is discarded; garbage is no reading', () => {
    expect(parseUsage(text('past-reset.json')).nearest).toMatchObject({ window: 'weekly', percent: 12 });
    expect(parseUsage('not json')).toMatchObject({ ok: false, problem: expect.stringMatching(/did not print JSON/) });
    expect(parseUsage('{"windows":[]}')).toMatchObject({ ok: false, problem: 'no session or weekly window was reported' });
  });

  it('reads a configured source command (argv) and says why when there is none or it fails', async () => {
    const ok = await readUsage([process.execPath, '-e', `process.stdout.write(require('fs').readFileSync(${JSON.stringify(fixture('quota-axi.json'))}))`]);
    expect(ok.nearest?.percent).toBe(71.5);
    expect((await readUsage(null)).problem).toMatch(/no usage source is configured/);
    expect((await readUsage([process.execPath, '-e', 'process.exit(4)'])).problem).toMatch(/the usage source failed/);
  });

  it('dispatch refuses at >= 90 % on a real reading (nothing dispatched) and warns and proceeds with no reading', async () => {
    const db = workDb('usage-dispatch');
    let dispatched = 0;
    const plain = async (p: DispatchParams): Promise<DispatchAnswer> => {
      dispatched++;
      return { id: p.id ?? '' } as DispatchAnswer; // only the id is read by the rules
    };
    const rules = crossRules({ store: { getProject: () => null } as any, fleet: { views: () => [], view: () => undefined } as any, stores: db.stores, home: db.dir, log: () => undefined });
    const dispatch = (p: DispatchParams) => dispatchUnderRules(rules, plain, p);
    const warned: any = await dispatch({ id: 'w1' });
    expect(warned.warnings[0]).toMatch(/usage unknown .*fail open/);
    expect(dispatched).toBe(1);
    usageSourceFile(db.dir).set([process.execPath, '-e', `process.stdout.write(require('fs').readFileSync(${JSON.stringify(fixture('claude-usage-endpoint.json'))}))`]);
    await expect(dispatch({ id: 'w2' })).rejects.toMatchObject({ code: 'usage-limit' });
    expect(dispatched).toBe(1);
  });
});
