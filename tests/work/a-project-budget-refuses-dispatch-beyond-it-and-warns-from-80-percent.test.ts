/**
 * Rule (issue 41 item 4): `hand project set <p> --budget 20usd/day` — what the project's workers
 * spent today (the usage ledger the session keeper writes from their agents' records, at the
 * price table) at or above the budget refuses a dispatch into the project, as the usage window
 * does; from 80 % a dispatch goes on with a warning; tokens of a model the table cannot price are
 * named as left out of the figure, never guessed. Spend of another day or another project does not
 * count. A budget that is not one is refused naming the form.
 */
import { describe, expect, it } from 'vitest';
import { basename } from 'node:path';
import { useDaemonWorld } from '../helpers/daemon-world.ts';
import { openWorkStores } from '../../persistence/work/index.ts';
import { today } from '../../actors/usage/cost-of.ts';

const world = useDaemonWorld();

/** Opus 5.5's input at $4 a million: `usd` dollars of it. */
const opusRow = (day: string, usd: number) => ({ model: 'claude-opus-5-5', day, input: Math.round((usd / 4) * 1e6), output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, messages: 1 });

describe("a project's daily budget", () => {
  it('refuses a dispatch at or above it, warns from 80 %, counts only today and only its own project, and names what it cannot price', async () => {
    const w = await world('budget');
    await w.call('annex', { repo: w.repo, yolo: true });
    const project = basename(w.repo);
    const bad = await w.refusal('projectSet', { name: project, budget: 'twenty dollars' });
    expect(bad).toMatchObject({ code: 'bad-budget' });
    expect(bad.message).toContain('20usd/day');
    expect(await w.call('projectSet', { name: project, budget: '20usd/day' })).toMatchObject({ budgetUsdPerDay: 20 });

    const stores = openWorkStores(w.paths.db);
    try {
      const day = today();
      const earlier = today(Date.now() - 2 * 86_400_000);
      // Yesterday's spend and another project's do not count against today's budget.
      stores.sessions.writeUsage({ worker: 'old', project, agent: 'claude', file: '/s/old.jsonl' }, [opusRow(earlier, 500)]);
      stores.sessions.writeUsage({ worker: 'other', project: 'someone-else', agent: 'claude', file: '/s/other.jsonl' }, [opusRow(day, 500)]);
      stores.sessions.writeUsage({ worker: 'w0', project, agent: 'claude', file: '/s/w0.jsonl' }, [opusRow(day, 10)]);
      const under = await w.dispatch('b1', 'MODE:report');
      expect(under.warnings.filter((x: string) => x.includes('budget') || x.includes('spent'))).toEqual([]);

      // 16 of 20: on, with the warning.
      stores.sessions.writeUsage({ worker: 'w0', project, agent: 'claude', file: '/s/w0.jsonl' }, [opusRow(day, 16)]);
      const near = await w.dispatch('b2', 'MODE:report');
      expect(near.warnings).toContainEqual(expect.stringMatching(new RegExp(`project ${project} has spent \\$16\\.00 of its \\$20\\.00 a day today \\(80 %\\)`)));

      // A model the table has no price for: its tokens are named as left out, never priced.
      stores.sessions.writeUsage({ worker: 'w1', project, agent: 'codex', file: '/s/w1.jsonl' }, [{ ...opusRow(day, 1), model: 'gpt-fake' }]);
      const unknown = await w.dispatch('b3', 'MODE:report');
      expect(unknown.warnings).toContainEqual(expect.stringContaining('tokens of gpt-fake, which the price table cannot price, are not in that figure'));

      // 20 of 20: refused before anything is made.
      stores.sessions.writeUsage({ worker: 'w0', project, agent: 'claude', file: '/s/w0.jsonl' }, [opusRow(day, 20)]);
      const refused = await w.refusal('dispatch', { id: 'b4', repo: w.repo, brief: w.brief('b4', 'MODE:report'), agent: 'mock', backend: 'tmux', readPaths: [], env: w.env });
      expect(refused.code).toBe('budget-spent');
      expect(refused.message).toContain(`hand project set ${project} --budget`);
      expect(await w.call('status', { id: 'b4' }).catch((e: { code: string }) => e.code)).toBe('unknown-worker');

      // Without a budget, the same spend refuses nothing.
      await w.call('projectSet', { name: project, budget: 'none' });
      expect(await w.dispatch('b5', 'MODE:report')).toMatchObject({ id: 'b5' });
      const cost = await w.call('cost', {});
      expect(cost.projectDays).toContainEqual(expect.objectContaining({ project, day, unpriced: ['gpt-fake'], budgetUsd: null }));
      expect(cost.projectDays.find((d: { project: string; day: string }) => d.project === project && d.day === day).usd).toBeCloseTo(20, 6);
    } finally {
      stores.close();
    }
  }, 60_000);
});
