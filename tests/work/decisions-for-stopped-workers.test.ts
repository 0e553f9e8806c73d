/**
 * Decisions whose worker cannot take the answer now (real daemon, tmux, mock agent): a parked
 * worker stopped with --force keeps its open decision; answering it relaunches the worker with
 * the answer (tests/work/decisions-relaunch-workers-that-are-not-live.test.ts). A declined decision
 * closes without work, after which the worker may be stopped without --force.
 */
import { describe, expect, it } from 'vitest';
import { parkedWorld, useCliWorld } from '../helpers/cli-world.ts';

const makeWorld = useCliWorld();

describe('decisions of workers that are not live', () => {
  it('stop --force keeps the decision; its answer relaunches the worker; a declined one frees the stop', async () => {
    const { w, ok, key } = await parkedWorld(makeWorld, 'work-not-live', ['p1', 'p2']);

    const forced = await ok(['stop', 'p1', '--force']);
    expect(forced.condition).toBe('gone');
    expect((await ok(['decisions'])).map((d: any) => d.key).sort()).toEqual([key('p1'), key('p2')].sort());
    const answer = await ok(['decide', key('p1'), 'Postgres']);
    expect(answer).toMatchObject({ state: 'answered', delivery: 'relaunched' });
    expect(answer.message).toContain('p1 was not live, so it was relaunched with the question and the answer');
    expect((await ok(['status', 'p1']))[0].decision).toMatchObject({ key: key('p1'), state: 'answered', delivery: 'sent' });

    const twice = await w.hand(['decide', key('p1'), 'SQLite', '--json']);
    expect(twice.code).toBe(1);
    expect(twice.json.error.code).toBe('decision-closed');

    const declined = await ok(['decide', key('p2'), '--declined', 'not needed any more']);
    expect(declined).toMatchObject({ state: 'declined', delivery: null });
    expect(await ok(['decisions'])).toEqual([]);
    expect((await ok(['stop', 'p2'])).condition).toBe('gone');
  }, 300_000);
});
