/**
 * Rule: the base branch moves only through a landing (issue 24 item 3). A worker's
 * `git update-ref refs/heads/main HEAD` in its worktree made its commit `main`; no gate opened
 * and the worker read `settled`. Now (1) git's reference-transaction hook refuses a worker's
 * update of the base branch, while the person's own git in their checkout passes; in kingshand's
 * sandbox (issue 37) the base's ref is read-only, so neither the hook's bypass (`-c
 * core.hooksPath=…`) nor a write of the ref file moves it; (2) a move by other means (anything
 * outside a worker's sandbox) is seen at the worker's settle — a journal row and a `hand watch
 * --needs-you` event until answered — and `hand land` refuses, naming the move and the way out,
 * until the person accepts the tip.
 * Real git, a real mock worker running the commands in its worktree with its own environment.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { waitFor } from '../helpers/temp.ts';

const tip = (repo: string, ref = 'main') => execFileSync('git', ['-C', repo, 'rev-parse', ref], { encoding: 'utf8' }).trim();

function steps(w: CliWorld) {
  const ok = async (args: string[], what: string, env: Record<string, string> = {}) => {
    const r = await w.hand([...args, '--json'], { timeoutMs: 90_000, env });
    expect(r.code, `${what}: ${r.stderr || r.stdout}`).toBe(0);
    return r.json;
  };
  /** The worker runs `command` in its worktree: a Bash permission, answered by the person's key. */
  const workerRuns = async (id: string, command: string) => {
    await ok(['send', id, `MODE:bash[[${command}]]`], `send ${id} a command`);
    const perm = await ok(['wait', id, '--until', 'blocked', '--timeout', '30s'], `${id} asks to run it`);
    expect(perm.blockedReason).toBe('permission');
    await ok(['keys', id, 'enter'], 'the permission answered');
    await ok(['wait', id, '--until', 'settled', '--timeout', '30s'], `${id} settles`);
  };
  return { ok, workerRuns };
}

describe('the base branch moves only through a landing', () => {
  it("a worker's git cannot move the base; a move by other means is told at the settle and land refuses until the person accepts it", async () => {
    const w = await makeCliWorld('base-guard');
    try {
      const { ok, workerRuns } = steps(w);
      await ok(['annex', w.repo, '--posture', 'local-only'], 'annex');
      const project = (await ok(['projects'], 'projects'))[0].name as string;
      const d = await ok(['dispatch', 'w1', '--repo', w.repo, '--brief', w.brief('w1', 'Make the change.'), '--agent', 'mock'], 'dispatch', { KH_MOCK_RUN_BASH: '1' });
      await ok(['approve', 'w1'], 'the brief approved');
      await ok(['wait', 'w1', '--until', 'settled', '--timeout', '30s'], 'w1 settles');
      const before = tip(w.repo);

      // (1) the plain move, from the worktree: refused by the hook.
      await workerRuns('w1', 'echo f > f.txt && git add f.txt && git commit -q -m "Add f" && git update-ref refs/heads/main HEAD');
      expect(tip(w.repo), "a worker's update-ref of main was refused").toBe(before);
      expect(tip(w.repo, 'worktree-w1'), 'its own branch moved').not.toBe(before);

      // The hook bypassed, or the ref file written by hand: the sandbox keeps the base's ref read-only.
      await workerRuns('w1', 'git -c core.hooksPath=/dev/null update-ref refs/heads/main HEAD; git rev-parse HEAD > "$(git rev-parse --git-common-dir)/refs/heads/main"; git -c core.hooksPath=/dev/null branch -f main HEAD');
      expect(tip(w.repo), 'neither the bypass nor a write of the ref file moved main').toBe(before);

      // (2) a move by other means (here the test's own git, standing for anything outside a sandbox): the settle after it tells the person.
      execFileSync('git', ['-C', w.repo, 'update-ref', 'refs/heads/main', tip(w.repo, 'worktree-w1')]);
      await workerRuns('w1', 'true');
      const moved = tip(w.repo);
      expect(moved).toBe(tip(w.repo, 'worktree-w1'));
      const row = await waitFor(async () => (await ok(['journal'], 'journal')).find((e: any) => e.kind === 'base-moved'), { timeoutMs: 15_000, what: 'a base-moved journal row after the settle' });
      expect(row).toMatchObject({ worker: 'w1', project });
      expect(row.text).toContain(`moved from ${before.slice(0, 12)} to ${moved.slice(0, 12)} outside a landing`);
      expect(row.text).toContain(`hand project set ${project} --accept-base`);

      // The Hand's wake hears it too, until the person answers.
      const needsYou = async () => {
        const r = await w.hand(['watch', '--needs-you', '--timeout', '1s', '--json'], { timeoutMs: 30_000 });
        expect(r.code, r.stderr).toBe(0);
        return r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((e: any) => e.need === 'base-moved');
      };
      const woken = await needsYou();
      expect(woken).toHaveLength(1);
      expect(woken[0]).toMatchObject({ worker: 'w1', project, command: `hand project set ${project} --accept-base` });
      expect(woken[0].line).toContain('outside a landing');

      await ok(['send', 'w1', `MODE:report ${d.reportPath}`], 'report');
      await ok(['wait', 'w1', '--until', 'settled', '--timeout', '30s'], 'w1 settles');
      const land = await w.hand(['land', 'w1', '--json']);
      expect(land.code, land.stdout).toBe(1);
      expect(land.json.error.code).toBe('base-moved-outside-a-landing');
      expect(land.json.error.message).toContain(`git -C ${w.repo} update-ref refs/heads/main ${before} ${moved}`);
      expect((await ok(['journal'], 'journal')).filter((e: any) => e.kind === 'base-moved'), 'one move is told once').toHaveLength(1);

      // The person says the move was theirs: the refusal goes (what is left is git's own answer).
      const accepted = await ok(['project', 'set', project, '--accept-base'], 'accept the base');
      expect(accepted.acceptedBase).toEqual([{ branch: 'main', from: before, to: moved }]);
      expect(await needsYou(), 'answered, it wakes nobody').toEqual([]);
      const again = await w.hand(['land', 'w1', '--json']);
      expect(again.json?.error?.code ?? null).not.toBe('base-moved-outside-a-landing');

      // The person's own git in their checkout is not a worker's: the hook lets it through.
      execFileSync('git', ['-C', w.repo, 'commit', '-q', '--allow-empty', '-m', 'the person commits on main'], { env: { ...process.env, GIT_AUTHOR_NAME: 'p', GIT_AUTHOR_EMAIL: 'p@x', GIT_COMMITTER_NAME: 'p', GIT_COMMITTER_EMAIL: 'p@x' } });
      expect(tip(w.repo)).not.toBe(moved);
    } finally {
      await w.cleanup();
    }
  }, 240_000);
});
