/**
 * Rule (counsel, issue 40): a read-only dispatch (`--read-only`) reads and reports. In kingshand's
 * sandbox its worktree and git are read-only (a write there fails; its report's directory is
 * writable); `hand land` refuses it (nothing to land: its report is the result); when it is done
 * the wake says to close it, not to land it; `hand close` stops it, removes its worktree and its
 * empty branch, archives the report and marks its backlog item done. A worker not dispatched
 * read-only is refused by close (it lands, or is discarded).
 *
 * A real daemon, tmux, bubblewrap and a mock worker whose scenario tries to write in its worktree
 * and then writes its report.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';

const makeWorld = useCliWorld();

describe('a read-only worker lands nothing and is closed with its report', () => {
  it('its worktree is read-only; land refuses; the wake says close; close ends it and marks its item done', async () => {
    const w = await makeWorld('read-only');
    const report = join(w.home, 'workers', 'ro1', 'out', 'report.md');
    const scenario = join(w.root, 'scenario.json');
    writeFileSync(scenario, JSON.stringify({
      turns: [{ match: 'READ-THE-STORIES', steps: [
        { kind: 'bash', command: 'echo tampered > touched.txt; git commit --allow-empty -q -m sneaked', description: 'Try to write in the worktree' },
        { kind: 'write', path: report, content: '# Report\n\n## Division\n- R-001 the checkout page\n' },
        { kind: 'reply', text: 'The division is in my report.' },
      ] }],
    }));
    const env = { KH_MOCK_SCENARIO: scenario, KH_MOCK_RUN_BASH: '1', KH_MOCK_PERMISSION_MODE: 'auto' };
    expect((await w.hand(['annex', w.repo, '--yolo', '--json'])).code).toBe(0);
    const item = await w.hand(['backlog', 'add', 'ro1', '--project', 'repo', '--brief', w.brief('ro1', 'READ-THE-STORIES and divide them.'), 'Divide the stories', '--json']);
    expect(item.code, item.stderr).toBe(0);
    const d = await w.hand(['dispatch', '--item', 'ro1', '--read-only', '--agent', 'mock', '--json'], { env });
    expect(d.code, d.stdout + d.stderr).toBe(0);
    const brief = await w.hand(['status', 'ro1', '--json']);
    expect(brief.json[0]).toMatchObject({ id: 'ro1', readOnly: true });
    const settled = await w.hand(['wait', 'ro1', '--until', 'settled', '--timeout', '30s', '--json']);
    expect(settled.code, `${JSON.stringify(settled.json)}\n${(await w.hand(['read', 'ro1'])).stdout}`).toBe(0);

    // The sandbox held: nothing written in the worktree, no commit on its branch.
    const worktree = join(w.repo, '.claude', 'worktrees', 'ro1');
    expect(existsSync(join(worktree, 'touched.txt')), 'a write in the read-only worktree').toBe(false);
    expect(execFileSync('git', ['-C', w.repo, 'rev-list', '--count', 'main..worktree-ro1'], { encoding: 'utf8' }).trim()).toBe('0');
    expect((await w.hand(['report', 'ro1', '--json'])).json.text).toContain('R-001 the checkout page');

    // The wake says what waits now first: a done read-only worker is to be closed, not landed.
    const watch = await w.hand(['watch', '--needs-you', '--json', '--timeout', '1s']);
    const events = watch.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { worker: string; need: string; line: string; command: string });
    const done = events.find((e) => e.worker === 'ro1' && e.need === 'done');
    expect(done).toMatchObject({ command: 'hand close ro1' });
    expect(done!.line).toContain('ro1 finished its read-only report; closing it is yours to ask for');

    const land = await w.hand(['land', 'ro1', '--json']);
    expect(land.code).toBe(1);
    expect(land.json.error).toMatchObject({ code: 'read-only-worker' });
    expect(land.json.error.message).toContain('hand close ro1');

    const closed = await w.hand(['close', 'ro1', '--json']);
    expect(closed.code, closed.stdout + closed.stderr).toBe(0);
    expect(closed.json).toMatchObject({ id: 'ro1', closed: true, worktree: 'removed', branch: 'deleted', itemDone: { id: 'ro1', state: 'done' } });
    expect(existsSync(worktree)).toBe(false);
    expect(readdirSync(closed.json.reportArchived)).toContain('out');
    expect(existsSync(join(closed.json.reportArchived, 'out', 'report.md'))).toBe(true);
    expect((await w.hand(['backlog', 'show', 'ro1', '--json'])).json).toMatchObject({ state: 'done' });
    expect((await w.hand(['status', '--json'])).json).toEqual([]);

  }, 90_000);

  it('close refuses a worker that was not dispatched read-only', async () => {
    const w = await makeWorld('not-read-only');
    expect((await w.hand(['annex', w.repo, '--yolo', '--json'])).code).toBe(0);
    expect((await w.hand(['dispatch', 'n1', '--repo', w.repo, '--brief', w.brief('n1', 'Say hello.'), '--agent', 'mock', '--json'])).code).toBe(0);
    const r = await w.hand(['close', 'n1', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({ code: 'not-read-only' });
    expect((await w.hand(['status', 'n1', '--json'])).json[0].id).toBe('n1');
  }, 60_000);
});
