import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { landingHandlers, type OpenLandingGate } from '../../actors/daemon/landing.ts';
import type { CallContext } from '../../actors/daemon/server.ts';
import { HandError } from '../../io/errors.ts';
import type { Posture } from '../../persistence/types.ts';
import { commitFile, git } from '../git/git-fixture.ts';
import { trackWorlds, type DispatchWorld } from '../daemon-dispatch/dispatch-fixture.ts';

const world = trackWorlds();
const ctx: CallContext = { progress: () => {}, signal: new AbortController().signal };

/** A dispatched worker that committed `message`, wrote its report and settled. */
async function finishedWorker(opts: { posture?: Posture; yolo?: boolean; message?: string } = {}): Promise<DispatchWorld & { worktree: string; briefDir: string }> {
  const w = await world({ posture: opts.posture, yolo: opts.yolo });
  const view = await w.dispatch();
  commitFile(view.worktree, 'greet.txt', 'hello\n', opts.message ?? 'add a greeting');
  writeFileSync(view.reportPath, 'Added greet.txt.\n');
  w.fleet.setView(view.id, { state: 'idle', reportExists: true });
  return { ...w, worktree: view.worktree, briefDir: join(w.workersDir, view.id) };
}

async function refusal(p: Promise<unknown>): Promise<HandError> {
  const e = await p.then(() => null, (x: unknown) => x);
  if (!(e instanceof HandError)) throw new Error(`expected a typed refusal, got ${String(e)}`);
  return e;
}

describe('the landing gate (hand land / approve / reject)', () => {
  it('lands a worker commit by fast-forward on a local-only project through the gate, then tears down in order', async () => {
    const w = await finishedWorker();
    const gates = new Map<string, OpenLandingGate>();
    const h = landingHandlers({ store: w.store, fleet: w.fleet, gates });
    const mainBefore = git(w.repo, 'rev-parse', 'main');
    const opened = (await h.land!({ id: 'T-1' }, ctx)) as { gate: string; waitingFor: string; evidence: { diffStat: string; commits: number } };
    expect(opened.gate).toBe('open');
    expect(opened.waitingFor).toContain('hand approve T-1');
    expect(opened.evidence.diffStat).toContain('greet.txt');
    expect(opened.evidence.commits).toBe(1);
    expect(git(w.repo, 'rev-parse', 'main')).toBe(mainBefore); // nothing lands before approval
    expect(gates.has('T-1')).toBe(true);

    const done = (await h.approve!({ id: 'T-1' }, ctx)) as { landed: { via: string; target: string }; teardown: { done: boolean; steps: string[] } };
    expect(done.landed).toMatchObject({ target: 'main', via: 'merge --ff-only' });
    expect(git(w.repo, 'rev-parse', 'main')).toBe(git(w.repo, 'rev-parse', 'worktree-T-1'));
    expect(done.teardown).toMatchObject({ done: true, steps: ['stop', 'worktree-remove+prune'] });
    expect(w.fleet.stops).toEqual(['T-1']);
    expect(existsSync(w.worktree)).toBe(false);
    expect(existsSync(join(w.briefDir, 'report.md'))).toBe(true);
    expect(existsSync(join(w.briefDir, 'brief.md'))).toBe(true);
    expect(gates.size).toBe(0);
  });

  it('refuses a landing whose commit carries Co-Authored-By: Claude, opening no gate', async () => {
    const w = await finishedWorker({ message: 'add a greeting\n\nCo-Authored-By: Claude <noreply@anthropic.com>' });
    const gates = new Map<string, OpenLandingGate>();
    const h = landingHandlers({ store: w.store, fleet: w.fleet, gates });
    const err = await refusal(h.land!({ id: 'T-1' }, ctx));
    expect(err.code).toBe('landing-attribution');
    expect(gates.size).toBe(0);
    expect(await refusal(h.approve!({ id: 'T-1' }, ctx))).toMatchObject({ code: 'no-open-gate' });
    expect(git(w.repo, 'rev-parse', 'main')).not.toBe(git(w.repo, 'rev-parse', 'worktree-T-1'));
  });

  it('skips the gate under yolo, never the checks', async () => {
    const w = await finishedWorker({ yolo: true });
    const h = landingHandlers({ store: w.store, fleet: w.fleet });
    const out = (await h.land!({ id: 'T-1' }, ctx)) as { gate: string };
    expect(out.gate).toBe('skipped-yolo');
    expect(git(w.repo, 'rev-parse', 'main')).toBe(git(w.repo, 'rev-parse', 'worktree-T-1'));
  });

  it('reject needs a reason and closes the gate without landing', async () => {
    const w = await finishedWorker();
    const h = landingHandlers({ store: w.store, fleet: w.fleet });
    await h.land!({ id: 'T-1' }, ctx);
    expect((await refusal(h.reject!({ id: 'T-1' }, ctx))).code).toBe('reason-required');
    expect((await refusal(h.reject!({ id: 'T-1', reason: '   ' }, ctx))).code).toBe('reason-required');
    expect(await h.reject!({ id: 'T-1', reason: 'greeting must be localised' }, ctx)).toEqual({ id: 'T-1', gate: 'rejected', reason: 'greeting must be localised' });
    expect((await refusal(h.approve!({ id: 'T-1' }, ctx))).code).toBe('no-open-gate');
    expect(existsSync(w.worktree)).toBe(true);
  });

  it('refuses an approval when the branch moved after the gate opened', async () => {
    const w = await finishedWorker();
    const h = landingHandlers({ store: w.store, fleet: w.fleet });
    await h.land!({ id: 'T-1' }, ctx);
    commitFile(w.worktree, 'more.txt', 'more\n', 'one more change');
    expect((await refusal(h.approve!({ id: 'T-1' }, ctx))).code).toBe('gate-evidence-changed');
    expect(git(w.repo, 'rev-parse', 'main')).not.toBe(git(w.repo, 'rev-parse', 'worktree-T-1'));
  });

  it('never lands a parked worker, nor one without a report', async () => {
    const w = await finishedWorker();
    const h = landingHandlers({ store: w.store, fleet: w.fleet });
    w.fleet.setView('T-1', { waitingOn: 'which greeting?' });
    expect((await refusal(h.land!({ id: 'T-1' }, ctx))).code).toBe('worker-parked');
    w.fleet.setView('T-1', { waitingOn: null });
    rmSync(w.store.getWorker('T-1')!.reportPath);
    expect((await refusal(h.land!({ id: 'T-1' }, ctx))).code).toBe('no-report');
  });

  it('leaves the worktree alone when the worker would not stop', async () => {
    const w = await finishedWorker();
    w.fleet.stopStage = 'teardown.timedOut';
    const h = landingHandlers({ store: w.store, fleet: w.fleet });
    await h.land!({ id: 'T-1' }, ctx);
    const out = (await h.approve!({ id: 'T-1' }, ctx)) as { teardown: { done: boolean } };
    expect(out.teardown.done).toBe(false);
    expect(existsSync(w.worktree)).toBe(true);
  });

  it('refuses a direct-PR landing at `hand land` when gh is not installed', async () => {
    const w = await finishedWorker({ posture: 'direct-PR' });
    const emptyBin = join(w.inbox, 'bin');
    mkdirSync(emptyBin);
    const h = landingHandlers({ store: w.store, fleet: w.fleet, env: { PATH: emptyBin } });
    const err = await refusal(h.land!({ id: 'T-1' }, ctx));
    expect(err.code).toBe('gh-missing');
    expect(err.message).toContain('sudo apt-get install gh');
  });

  it('refuses to land a no-mistakes project (its review gate is not driven here)', async () => {
    const w = await finishedWorker({ posture: 'no-mistakes' });
    const h = landingHandlers({ store: w.store, fleet: w.fleet });
    expect((await refusal(h.land!({ id: 'T-1' }, ctx))).code).toBe('posture-not-landable');
  });
});
