/**
 * Decisions whose worker cannot take the answer now (real daemon, tmux, mock agent): a parked
 * worker stopped with --force keeps its open decision; answering it relaunches the worker with
 * the answer (tests/work/decisions-relaunch-workers-that-are-not-live.test.ts). A declined decision
 * closes without work, after which the worker may be stopped without --force.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { waitFor } from '../helpers/temp.ts';

let world: CliWorld | null = null;
afterEach(async () => {
  await world?.cleanup();
  world = null;
});

describe('decisions of workers that are not live', () => {
  it('stop --force keeps the decision; its answer relaunches the worker; a declined one frees the stop', async () => {
    world = await makeCliWorld('work-not-live');
    const w = world;
    const ok = async (args: string[]) => {
      const r = await w.hand([...args, '--json']);
      expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
      return r.json;
    };
    await ok(['annex', w.repo, '--name', 'shop', '--yolo']);
    const brief = join(w.root, 'park.md');
    writeFileSync(brief, '# Park\n\n## Read first\n\nNothing.\n\n## Task\n\nMODE:park\n');
    for (const id of ['p1', 'p2']) await ok(['dispatch', id, '--repo', w.repo, '--brief', brief, '--agent', 'mock']);
    const decisions = await waitFor(async () => {
      const r = await ok(['decisions']);
      return r.length === 2 ? r : undefined;
    }, { what: 'both parked workers\' decisions', timeoutMs: 45_000 });
    const key = (worker: string) => decisions.find((d: any) => d.worker === worker).key as string;

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
