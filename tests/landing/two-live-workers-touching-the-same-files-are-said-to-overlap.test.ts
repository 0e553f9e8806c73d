/**
 * Rule: two live workers of one repository whose branches touch the same files are said to
 * overlap while both still run — in `hand status` (its rows and the line under the table),
 * survey, the digest and the worker's page — so the person steers one away, or lands one and
 * rebases the other, before the second landing meets a moved base (issue 40). A worker of
 * another repository, a file only one of them touches, and a worker that landed never count.
 *
 * A real daemon, tmux, git and mock workers. The files are written in the worktrees as a worker
 * writes them: one committed on its branch, one left uncommitted (both count), and a third
 * file whose name carries a newline (in both), which every face prints escaped.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';
import { signInWithToken } from '../helpers/review-session.ts';
import { until } from '../helpers/temp.ts';

const makeWorld = useCliWorld();

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' } });

interface Row { id: string; overlaps?: { with: string; files: string[]; count: number }[] }

describe('two live workers touching the same files are said to overlap', () => {
  it('status, its table, survey, the digest and the worker page name the pair and the shared files; nothing else is called an overlap', async () => {
    const w = await makeWorld('overlap');
    expect((await w.hand(['annex', w.repo, '--yolo', '--json'])).code).toBe(0);
    for (const id of ['a1', 'b1', 'c1']) {
      const r = await w.hand(['dispatch', id, '--repo', w.repo, '--brief', w.brief(id, 'Say hello.'), '--agent', 'mock', '--json']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
    }
    for (const id of ['a1', 'b1', 'c1']) expect((await w.hand(['wait', id, '--until', 'settled', '--timeout', '30s', '--json'])).code).toBe(0);
    const rows = (await w.hand(['status', '--json'])).json as (Row & { stage: string })[];
    const tree = (id: string) => join(w.repo, '.claude', 'worktrees', id);
    // a1 commits shared.ts and its own a.ts; b1 edits shared.ts without committing, and a file with a newline in its name; c1 touches only c.ts.
    writeFileSync(join(tree('a1'), 'shared.ts'), 'export const a = 1;\n');
    writeFileSync(join(tree('a1'), 'a.ts'), 'a\n');
    git(tree('a1'), 'add', 'shared.ts', 'a.ts');
    git(tree('a1'), 'commit', '-q', '-m', 'Add shared and a');
    writeFileSync(join(tree('b1'), 'shared.ts'), 'export const b = 2;\n');
    writeFileSync(join(tree('b1'), 'odd\nname.ts'), 'x\n');
    writeFileSync(join(tree('a1'), 'odd\nname.ts'), 'y\n');
    writeFileSync(join(tree('c1'), 'c.ts'), 'c\n');
    expect(rows.map((r) => r.overlaps ?? null), 'nothing touched yet: no overlap').toEqual([null, null, null]);

    // Each worker's files are read at most once a second (overlaps.ts): the next reading has them.
    const after = await until('the overlap of a1 and b1 in status', async () => ((await w.hand(['status', '--json'])).json as Row[]).sort((x, y) => x.id.localeCompare(y.id)), (rs) => rs.some((r) => r.overlaps), 5_000);
    const oddName = 'odd\\x0aname.ts';
    expect(after.map((r) => [r.id, r.overlaps ?? null])).toEqual([
      ['a1', [{ with: 'b1', files: [oddName, 'shared.ts'], count: 2 }]],
      ['b1', [{ with: 'a1', files: [oddName, 'shared.ts'], count: 2 }]],
      ['c1', null],
    ]);
    const one = (await w.hand(['status', 'b1', '--json'])).json as Row[];
    expect(one[0]!.overlaps, 'a single worker\'s status says it too').toEqual([{ with: 'a1', files: [oddName, 'shared.ts'], count: 2 }]);

    const text = (await w.hand(['status'])).stdout;
    const line = `a1 and b1 both change ${oddName}, shared.ts: the second to land rebases onto the first (hand land <id> --rebase), or steer one away now`;
    expect(text).toContain(`overlap: ${line}`);
    expect(text.split('\n').filter((l) => l.startsWith('overlap:')), 'once per pair').toHaveLength(1);

    const survey = await w.hand(['survey', '--json']);
    expect(survey.json.overlaps).toEqual([{ workers: ['a1', 'b1'], files: [oddName, 'shared.ts'], count: 2 }]);
    expect((await w.hand(['survey'])).stdout).toContain(`Overlaps:\n- ${line}`);
    expect((await w.hand(['digest'])).stdout).toContain(`OVERLAP ${line}`);

    // The worker's page lists it with a link to the other worker, the names escaped.
    const review = await w.hand(['review', '--json']);
    const url = new URL(review.json.url as string);
    const page = await signInWithToken(url.origin, url.searchParams.get('token')!);
    const html = await (await fetch(`${url.origin}/w/b1`, { headers: { cookie: page.cookie } })).text();
    expect(html).toContain('<ul id="overlaps"><li><a href="/w/a1">a1</a> also changes <code>odd\\x0aname.ts</code>, <code>shared.ts</code></li></ul>');
    const c1 = await (await fetch(`${url.origin}/w/c1`, { headers: { cookie: page.cookie } })).text();
    expect(c1).not.toContain('id="overlaps"');

    // A worker that ended (stopped, landed, rejected) changes its branch no more: it overlaps nothing.
    expect((await w.hand(['stop', 'a1', '--json'])).code).toBe(0);
    const left = ((await w.hand(['status', '--json'])).json as Row[]).filter((r) => r.overlaps);
    expect(left, 'a stopped worker overlaps nothing').toEqual([]);
  }, 120_000);
});
