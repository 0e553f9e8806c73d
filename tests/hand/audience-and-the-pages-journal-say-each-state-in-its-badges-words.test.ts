/**
 * Rule: `hand audience` and the review page's journal say a worker's state in the words of the
 * page's condition badge (issue 38 item 7), all three read from one table (contract/
 * state-words.ts) keyed by the tags the machine declares. Audience used to call a brief waiting
 * for approval "blocked", a rejection and a stop "exited", and a landing "exited" then "landed";
 * the journal showed the stage paths (`gate.awaitingBriefApproval → rejected`).
 *
 * Walked over every leaf state of the worker machine, then through a real daemon and mock
 * workers: one rejected at its brief gate, one carried through both gates to its landing.
 */
import { describe, expect, it } from 'vitest';
import type { AnyStateNode } from 'xstate';
import { workerMachine } from '../../machines/worker.machine.ts';
import { meaningOfStage } from '../../actors/condition.ts';
import { buildView } from '../../actors/worker-view.ts';
import { describe as badgeOf } from '../../actors/review/condition.ts';
import { stageWords } from '../../actors/review/journal-words.ts';
import { audienceWords, kindOf } from '../../daemon/gates/fleet-picture.ts';
import { FINAL_KINDS, STATE_WORDS, stateKindOf, type StateKind } from '../../contract/state-words.ts';
import type { WorkerIntent } from '../../persistence/types.ts';
import type { WorkerContext } from '../../machines/worker.types.ts';
import type { CliWorld } from '../cli/cli-harness.ts';
import { audienceEventsOf, useAnnexedWorld } from '../helpers/cli-world.ts';
import { commitAndReport, dispatchMock, reviewUrl, waitUntil } from '../helpers/review-steps.ts';
import { signInWithToken } from '../helpers/review-session.ts';

function leaves(node: AnyStateNode, path: string[] = []): string[] {
  const children = Object.entries(node.states);
  if (children.length === 0) return [path.join('.')];
  return children.flatMap(([key, child]) => leaves(child, [...path, key]));
}
const stages = leaves(workerMachine.root as AnyStateNode);

/** The view of a worker resting in `stage`, as the page gets it (a parked one with its decision). */
function viewAt(stage: string) {
  const intent = { id: 'w1', project: 'shop', backend: 'tmux', agent: 'mock', worktree: '/w', branch: 'kh/w1', base: 'main', briefPath: '/b', reportPath: '/r', repo: '/repo' } as unknown as WorkerIntent;
  const meaning = meaningOfStage(stage);
  const context = meaning.marks.includes('parked') ? ({ waitingOn: 'which database?' } as unknown as WorkerContext) : null;
  return buildView({ intent, stage, meaning, context, live: true, updatedAt: 1 });
}

describe('every state reads the same on the badge, in the journal and in hand audience', () => {
  it('walks the whole machine', () => {
    expect(stages.length).toBeGreaterThan(30);
  });

  for (const stage of stages) {
    it(`${stage}: the journal's words and audience's are the badge's`, () => {
      const badge = badgeOf(viewAt(stage)).label;
      expect(stageWords(stage), 'the page journal').toBe(badge);
      const told = kindOf(stage, null);
      if (told !== null) expect(audienceWords(told), 'hand audience').toBe(badge);
    });
  }

  it('each kind has its words, and every kind is some state of the machine', () => {
    const reached = new Set<StateKind>(stages.map((s) => stateKindOf(meaningOfStage(s))));
    expect([...Object.keys(STATE_WORDS)].filter((k) => !reached.has(k as StateKind))).toEqual([]);
  });

  it('a gate reads as its gate, a rejection as rejected, a landing as landed, each end as itself', () => {
    const says = (stage: string) => ({ badge: badgeOf(viewAt(stage)).label, journal: stageWords(stage), audience: audienceWords(kindOf(stage, null)!) });
    const same = (words: string) => ({ badge: words, journal: words, audience: words });
    expect(says('gate.awaitingBriefApproval')).toEqual(same('brief approval'));
    expect(says('landing.awaitingApproval')).toEqual(same('landing approval'));
    expect(says('rejected')).toEqual(same('rejected'));
    expect(says('landed')).toEqual(same('landed'));
    expect(says('stopped')).toEqual(same('stopped'));
    expect(says('gone')).toEqual(same('exited'));
    expect(says('failed')).toEqual(same('failed'));
    expect(says('lost')).toEqual(same('lost'));
    expect(says('parked')).toEqual(same('open decision'));
    expect(says('done')).toEqual(same('done'));
    expect(says('settled.unconfirmed')).toEqual(same('idle'));
    expect(says('running.blocked')).toEqual(same('blocked'));
    expect(says('running.stalled')).toEqual(same('stalled'));
    expect(says('running.unclassified')).toEqual(same('could not tell'));
    expect(says('waitFailed')).toEqual(same('could not tell'));
    expect(says('running.agentError')).toEqual(same('agent error'));
    expect(says('teardown.timedOut')).toEqual(same('did not stop'));
    for (const end of FINAL_KINDS) expect(STATE_WORDS[end]).not.toBe('blocked');
  });

  it('a process that ended before its machine moved on reads exited on the badge', () => {
    const v = { ...viewAt('running.working'), live: false };
    expect(badgeOf(v).label).toBe('exited');
  });
});

describe('through the daemon: a rejected worker and a landed one', () => {
  let w: CliWorld;
  let t0: number;
  useAnnexedWorld('audience-words', ['--posture', 'local-only'], (world, since) => {
    w = world;
    t0 = since;
  });

  it('hand audience and the page tell a rejection as rejected and a landing as landed, a gate as its gate', async () => {
    await dispatchMock(w.hand, 'rej', w.repo, w.brief('rej', 'Say hello.'));
    expect((await w.hand(['reject', 'rej', '--reason', 'not now', '--json'])).code).toBe(0);

    const lands = await dispatchMock(w.hand, 'lands', w.repo, w.brief('lands', 'Say hello.'), { KH_MOCK_RUN_BASH: '1' });
    expect((await w.hand(['approve', 'lands', '--json'])).code).toBe(0);
    await waitUntil(w.hand, 'lands', 'settled');
    await commitAndReport(w.hand, 'lands', lands.reportPath, 'echo x > x.txt && git add x.txt && git commit -q -m "Add x"');
    const land = await w.hand(['land', 'lands', '--json']);
    expect(land.code, land.stderr).toBe(0);
    expect(land.json.gate ?? land.json.stage, 'the landing waits at its gate').toBeTruthy();
    const review = await reviewUrl(w.hand);
    const session = await signInWithToken(review.origin, review.token);
    const atGate = await (await fetch(`${review.origin}/w/lands`, { headers: { cookie: session.cookie } })).text();
    expect(atGate).toContain('class="badge tone-attention">landing approval</span>');
    expect((await w.hand(['approve', 'lands', '--json'])).code).toBe(0);
    const landed = await w.hand(['wait', 'lands', '--until', 'exited', '--timeout', '60s', '--json']);
    expect(landed.json.stage).toBe('landed');

    const a = await w.hand(['audience', '--since', String(t0), '--json']);
    expect(a.code, a.stderr).toBe(0);
    expect(audienceEventsOf(a.json, 'rej').map((e) => [e.kind, e.words])).toEqual([
      ['dispatched', 'dispatched'], ['brief-gate', 'brief approval'], ['rejected', 'rejected'],
    ]);
    const story = audienceEventsOf(a.json, 'lands').map((e) => e.words);
    expect(story.slice(0, 3)).toEqual(['dispatched', 'brief approval', 'started after the brief was approved']);
    expect(story.slice(-3)).toEqual(['done', 'landing approval', 'landed']);
    for (const wrong of ['exited', 'settled']) expect(story, `no "${wrong}"`).not.toContain(wrong);

    const text = (await w.hand(['audience', '--since', String(t0)])).stdout;
    expect(text).toMatch(/rej:\n\s+\d\d:\d\d:\d\d dispatched\n\s+\d\d:\d\d:\d\d brief approval\n\s+\d\d:\d\d:\d\d rejected/);
    expect(text).toMatch(/\d\d:\d\d:\d\d landing approval\n\s+\d\d:\d\d:\d\d landed/);

    // The page: the badge and the journal's stage column in the same words, the stage paths in tooltips.
    const page = await (await fetch(`${review.origin}/w/rej`, { headers: { cookie: session.cookie } })).text();
    expect(page).toContain('<span id="condition" class="badge tone-finished">rejected</span>');
    expect(page).toContain('<td title="gate.awaitingBriefApproval → rejected">brief approval → rejected</td>');
    const landedPage = await (await fetch(`${review.origin}/w/lands`, { headers: { cookie: session.cookie } })).text();
    expect(landedPage).toContain('<span id="condition" class="badge tone-finished">landed</span>');
    expect(landedPage).toMatch(/<td title="done → landing\.awaitingApproval">done → landing approval<\/td>/);
    expect(landedPage).toMatch(/→ landed<\/td>/);
  }, 120_000);
});
