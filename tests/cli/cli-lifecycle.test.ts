/**
 * End to end through the real CLI binary: real daemon, real tmux (and pty), the mock agent,
 * a temp git repository. Each step asserts on what the product reported and on real effects.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCliWorld, type CliWorld } from './cli-harness.ts';

let world: CliWorld | null = null;
afterEach(async () => {
  await world?.cleanup();
  world = null;
});

for (const backend of ['tmux', 'pty'] as const) {
  describe(`hand lifecycle on ${backend}`, () => {
    it('dispatch → blocked on a question → answered one key per call → settled with a report → stop exits', async () => {
      world = await makeCliWorld(`cli-${backend}`);
      const w = world;
      // yolo: this test is about the worker's life, not the dispatch gate (cli-brief-gate covers that).
      expect((await w.hand(['annex', w.repo, '--yolo', '--json'])).code).toBe(0);
      const brief = w.brief('ask', 'Pick a database.');
      const d = await w.hand(['dispatch', 'w1', '--repo', w.repo, '--brief', brief, '--agent', 'mock', '--backend', backend, '--json']);
      expect(d.code, d.stderr).toBe(0);
      expect(d.json).toMatchObject({ id: 'w1', branch: 'worktree-w1', base: 'main', backend, agent: 'mock' });
      expect(existsSync(join(w.repo, '.claude', 'worktrees', 'w1'))).toBe(true);
      expect(readFileSync(d.json.briefPath, 'utf8')).toContain('Pick a database.');

      // The first prompt gets a reply; the worker settles without a report (settled is not done).
      const first = await w.hand(['wait', 'w1', '--until', 'settled', '--timeout', '30s', '--json']);
      expect(first.code, first.stdout + first.stderr).toBe(0);
      expect(first.json).toMatchObject({ reason: 'settled', state: 'idle', promptBox: '' });

      expect((await w.hand(['send', 'w1', 'MODE:ask', 'which', 'database?', '--json'])).code).toBe(0);
      const blocked = await w.hand(['wait', 'w1', '--until', 'blocked', '--timeout', '30s', '--json']);
      expect(blocked.code, blocked.stdout + blocked.stderr).toBe(0);
      expect(blocked.json).toMatchObject({ reason: 'blocked', awaitingInput: true, blockedReason: 'question' });

      const down = await w.hand(['keys', 'w1', 'down', '--json']);
      expect(down.code, down.stderr).toBe(0);
      const screen = await w.hand(['read', 'w1', '--json']);
      expect(screen.json.text).toMatch(/❯ 2\. Postgres/);
      expect((await w.hand(['keys', 'w1', 'enter', '--json'])).code).toBe(0);
      const answered = await w.hand(['wait', 'w1', '--until', 'settled', '--timeout', '30s', '--json']);
      expect(answered.code, answered.stdout).toBe(0);
      expect((await w.hand(['read', 'w1', '--json'])).json.text).toContain('→ Postgres');

      const reportPath = d.json.reportPath as string;
      expect((await w.hand(['send', 'w1', `MODE:report ${reportPath}`])).code).toBe(0);
      const done = await w.hand(['wait', 'w1', '--until', 'settled', '--timeout', '30s', '--json']);
      expect(done.code).toBe(0);
      const status = await w.hand(['status', 'w1', '--json']);
      expect(status.json[0]).toMatchObject({ id: 'w1', reportExists: true, live: true, backend });
      expect(existsSync(reportPath)).toBe(true);

      const stop = await w.hand(['stop', 'w1', '--json']);
      expect(stop.code, stop.stderr).toBe(0);
      expect(stop.json).toMatchObject({ exitCode: 0 });
      const after = await w.hand(['wait', 'w1', '--until', 'exited', '--timeout', '10s', '--json']);
      expect(after.json.reason).toBe('gone');
    });
  });
}
