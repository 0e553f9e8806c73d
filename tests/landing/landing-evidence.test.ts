import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evidenceRefusal, gatherLandingEvidence, scanAttribution } from '../../io/git/index.ts';
import { HandError } from '../../contract/errors.ts';
import { makeClonedRepo, makeRepo, trackFixtures } from '../git/git-fixture.ts';
import { workerWith, workerPastUpstream } from './landing-fixture.ts';

const track = trackFixtures();

describe('landing evidence', () => {
  it('gathers diff --stat base...HEAD and log base..HEAD for a worker with one commit', async () => {
    const fx = track(makeRepo({ label: 'landing' }));
    const w = await workerWith(fx.repo, 'main', [{ file: 'greet.txt', message: 'add a greeting' }]);
    const e = await gatherLandingEvidence({ repo: fx.repo, branch: w.branch, base: 'main', worktree: w.worktree });
    expect(e.verdict).toBe('ready');
    expect(e.diffStat).toContain('greet.txt');
    expect(e.log).toMatch(/^[0-9a-f]+ add a greeting$/);
    expect(e.commits).toHaveLength(1);
    expect(e.uncommitted).toEqual([]);
    expect(evidenceRefusal(e)).toBeNull();
  });

  it('refuses when the recorded base no longer resolves: empty evidence is never clean evidence', async () => {
    const fx = track(makeRepo({ label: 'landing' }));
    const w = await workerWith(fx.repo, 'main', [{ file: 'a.txt', message: 'a' }]);
    const err = await gatherLandingEvidence({ repo: fx.repo, branch: w.branch, base: 'origin/main' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HandError);
    expect((err as HandError).code).toBe('landing-base-missing');
  });

  it('reports an empty diff as "nothing to land", never as ready', async () => {
    const fx = track(makeRepo({ label: 'landing' }));
    const w = await workerWith(fx.repo, 'main', []);
    const e = await gatherLandingEvidence({ repo: fx.repo, branch: w.branch, base: 'main', worktree: w.worktree });
    expect(e.verdict).toBe('nothing-to-land');
    expect(evidenceRefusal(e)?.code).toBe('nothing-to-land');
  });

  it('refuses a commit with a Co-Authored-By: Claude trailer', async () => {
    const fx = track(makeRepo({ label: 'landing' }));
    const w = await workerWith(fx.repo, 'main', [{ file: 'a.txt', message: 'add a\n\nCo-Authored-By: Claude <noreply@anthropic.com>' }]);
    const e = await gatherLandingEvidence({ repo: fx.repo, branch: w.branch, base: 'main' });
    expect(e.verdict).toBe('attribution');
    expect(e.attributionHits.map((h) => h.line)).toContain('Co-Authored-By: Claude <noreply@anthropic.com>');
    expect(evidenceRefusal(e)?.code).toBe('landing-attribution');
  });

  it('scans commit messages for claude / assistant / co-authored, ignoring case', () => {
    const rec = (sha: string, body: string) => `${sha}\x00${body}\x1e`;
    const { hits, commits } = scanAttribution(rec('a1', 'fix\n\nwritten with an ASSISTANT\n') + '\n' + rec('b2', 'plain change\n') + '\n' + rec('c3', 'x\n\nco-authored-by: Someone <s@x>\n'));
    expect(commits.map((c) => c.sha)).toEqual(['a1', 'b2', 'c3']);
    expect(hits.map((h) => h.sha)).toEqual(['a1', 'c3']);
  });

  it('scans only base..HEAD: a colleague\'s trailer already on the base is not the worker\'s', async () => {
    const fx = track(makeClonedRepo({ label: 'landing-clone' }));
    const w = await workerPastUpstream(fx, { file: 'upstream.txt', message: 'upstream work\n\nCo-authored-by: A Colleague <c@example.invalid>' }, { file: 'mine.txt', message: 'my change' });
    const e = await gatherLandingEvidence({ repo: fx.repo, branch: w.branch, base: 'origin/main' });
    expect(e.verdict).toBe('ready');
    expect(e.diffStat).not.toContain('upstream.txt');
  });

  it('refuses uncommitted changes in the worktree (they would not land)', async () => {
    const fx = track(makeRepo({ label: 'landing' }));
    const w = await workerWith(fx.repo, 'main', [{ file: 'a.txt', message: 'a' }]);
    writeFileSync(join(w.worktree, 'loose.txt'), 'not committed\n');
    const e = await gatherLandingEvidence({ repo: fx.repo, branch: w.branch, base: 'main', worktree: w.worktree });
    expect(e.verdict).toBe('uncommitted');
    expect(evidenceRefusal(e)?.message).toContain('loose.txt');
  });
});
