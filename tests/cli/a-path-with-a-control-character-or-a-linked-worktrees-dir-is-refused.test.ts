/**
 * Rules (issue 43): a path with a control character is refused where it comes in, naming it — a
 * repository path with a newline ended in "internal error … ENOENT" — and a repository whose
 * `.claude` (where the worktrees are made) is a link to a directory outside is refused before
 * anything is made: every worker's checkout, settings and trust would have landed wherever it
 * points.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';

const makeWorld = useCliWorld();

describe('paths a worker would be made from', () => {
  it('a repository path with a newline: refused at annex and dispatch, naming the newline', async () => {
    const w = await makeWorld('newline-path');
    const odd = join(w.root, 're\npo');
    mkdirSync(odd);
    execFileSync('git', ['init', '-q', odd]);
    const a = await w.hand(['annex', odd, '--json']);
    expect(a.code).toBe(2);
    expect(a.json.error).toMatchObject({ code: 'bad-path' });
    expect(a.json.error.message).toContain('a control character (U+000A, a newline) at position');
    expect((await w.hand(['annex', w.repo, '--yolo', '--json'])).code).toBe(0);
    const d = await w.hand(['dispatch', 'n1', '--repo', odd, '--brief', w.brief('n1', 'x'), '--agent', 'mock', '--json']);
    expect(d.code).toBe(2);
    expect(d.json.error.code).toBe('bad-path');
  });

  it("a repository whose .claude is a link outside: dispatch refuses before anything is made, naming the link", async () => {
    const w = await makeWorld('linked-claude');
    const outside = join(w.root, 'outside');
    mkdirSync(outside);
    // The repository keeps its .claude elsewhere (a dotfile manager, or a worker's plant).
    symlinkSync(outside, join(w.repo, '.claude'));
    expect((await w.hand(['annex', w.repo, '--yolo', '--json'])).code).toBe(0);
    const before = readdirSync(outside).sort();
    const d = await w.hand(['dispatch', 'l1', '--repo', w.repo, '--brief', w.brief('l1', 'Say hi.'), '--agent', 'mock', '--json']);
    expect(d.code, d.stdout + d.stderr).toBe(1);
    expect(d.json.error.code).toBe('worktrees-dir-is-a-link');
    expect(d.json.error.message).toContain(`${join(w.repo, '.claude')} is a symbolic link`);
    expect(readdirSync(outside).sort(), 'nothing made where the link points').toEqual(before);
  });
});
