/**
 * One dispatch asks git each question about its repository once. Every git process is a fork of
 * the daemon (a ~200 MB Node process): one mock-agent dispatch started 17, three of them the same
 * `rev-parse --show-toplevel` and three the same `--git-common-dir`. The rule: the repository's
 * top level and common git directory are asked once, at the start of the dispatch, and handed to
 * the base's resolution and the worker's preparation; the refs the base is read from once each.
 * Nothing is kept past the dispatch (a repository can move or go before the next question): a
 * brief approved later asks again. Counted with a git on PATH that logs its argv and runs the real one.
 */
import { appendFileSync, chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';

const makeWorld = useCliWorld();

/**
 * A constant script (no text of ours goes into it): it appends its argv, one line a call, to
 * `git.log` beside it and runs the git named in `real-git` beside it.
 */
const WRAPPER = `#!/bin/sh
dir=\${0%/*}
printf '%s\\n' "$*" >> "$dir/git.log"
IFS= read -r real < "$dir/real-git"
exec "$real" "$@"
`;

function gitWrapper(root: string): { dir: string; log: string } {
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  expect(realGit, 'a git on PATH').not.toBe('');
  const dir = join(root, 'git-wrapper');
  mkdirSync(dir);
  writeFileSync(join(dir, 'real-git'), `${realGit}\n`);
  writeFileSync(join(dir, 'git'), WRAPPER);
  chmodSync(join(dir, 'git'), 0o755);
  appendFileSync(join(dir, 'git.log'), '');
  return { dir, log: join(dir, 'git.log') };
}

let savedPath: string | undefined;
beforeEach(() => {
  savedPath = process.env.PATH;
});
afterEach(() => {
  process.env.PATH = savedPath;
});

describe('one dispatch asks git each question once', () => {
  it('asks for the top level, the common git directory and each symbolic ref at most once', async () => {
    const w = await makeWorld('git-questions');
    expect((await w.hand(['annex', w.repo, '--yolo', '--json'])).code).toBe(0);
    const wrapper = gitWrapper(w.root);
    // The daemon runs in this process: its git is found on this process's PATH.
    process.env.PATH = `${wrapper.dir}:${savedPath}`;
    // Dispatch answers once the worker's worktree, seed and pane are made: all of its git is in.
    const d = await w.hand(['dispatch', 'g1', '--repo', w.repo, '--brief', w.brief('g1', 'Say hi.'), '--agent', 'mock', '--backend', 'tmux', '--json']);
    expect(d.code, d.stdout + d.stderr).toBe(0);
    // (A worktree add among them shows the wrapper was the git the daemon ran.)
    const calls = readFileSync(wrapper.log, 'utf8').split('\n').filter(Boolean);
    process.env.PATH = savedPath;
    const said = `git calls of the dispatch:\n${calls.join('\n')}`;
    const count = (pred: (c: string) => boolean) => calls.filter(pred).length;
    expect(count((c) => c.startsWith('worktree add ')), said).toBe(1);
    expect(count((c) => /^rev-parse .*--show-toplevel/.test(c)), said).toBe(1);
    expect(count((c) => /^rev-parse .*--git-common-dir/.test(c)), said).toBeLessThanOrEqual(1);
    expect(count((c) => c === 'symbolic-ref --quiet --short refs/remotes/origin/HEAD'), said).toBeLessThanOrEqual(1);
    expect(count((c) => c === 'symbolic-ref --quiet --short HEAD'), said).toBeLessThanOrEqual(1);
    const settled = await w.hand(['wait', 'g1', '--until', 'settled', '--timeout', '30s', '--json']);
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
  }, 120_000);

  it('what a dispatch asked is not kept: a repository moved before its brief is approved is named by the preparation', async () => {
    const w = await makeWorld('git-questions-gate');
    // Not yolo: the worker rests at brief approval, and the dispatch has answered.
    expect((await w.hand(['annex', w.repo, '--json'])).code).toBe(0);
    const d = await w.hand(['dispatch', 'g2', '--repo', w.repo, '--brief', w.brief('g2', 'Say hi.'), '--agent', 'mock', '--backend', 'tmux', '--json']);
    expect(d.code, d.stdout + d.stderr).toBe(0);
    const away = `${w.repo}-moved`;
    renameSync(w.repo, away);
    try {
      // The approval's preparation asks git afresh: it is told the repository is gone, by name.
      const approved = await w.hand(['approve', 'g2', '--json']);
      expect(approved.code, approved.stdout + approved.stderr).toBe(1);
      expect((approved.json as { error: { code: string; message: string } }).error).toMatchObject({ code: 'dispatch-failed' });
      expect((approved.json as { error: { message: string } }).error.message).toContain(`prepare: UsageError: repository path ${w.repo} does not exist`);
    } finally {
      renameSync(away, w.repo);
    }
  }, 120_000);
});
