/**
 * The landing gate through the daemon's handlers and the REAL worker machine: `hand land` opens
 * `landing.awaitingApproval` with the evidence in the machine's context, `hand approve` lands
 * through the io/git landing port and the machine tears down (its own /exit, close pane,
 * worktree remove + prune) to `landed`; refusals open no gate and land nothing. Real git
 * repositories; the terminal is the scripted host (the fleet wiring is what is under test).
 */
import { PARAM_PARSERS } from '../../daemon/method-table.ts';
import type { WireObject } from '../../contract/protocol.ts';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallContext } from '../../daemon/server.ts';
import { HandError } from '../../contract/errors.ts';
import type { Posture } from '../../persistence/types.ts';
import { commitFile, git } from '../git/git-fixture.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { settle, showTurnEnd } from '../actors/helpers/harness.ts';
import { reading } from '../actors/helpers/scripted-host.ts';
import { useDoneWorkers, type DoneWorker } from './done-landing-worker.ts';

const temps: (() => void)[] = [];
afterEach(() => {
  while (temps.length) temps.pop()!();
});
const ctx: CallContext = { progress: () => {}, signal: new AbortController().signal };

type World = DoneWorker & { env?: Record<string, string> };
const doneWorkerAt = useDoneWorkers();

/** A real repo and worktree, a worker walked to done (committed `message`, report written). */
async function doneWorker(opts: { posture?: Posture; yolo?: boolean; message?: string; env?: Record<string, string>; reportCheck?: () => Promise<void> } = {}): Promise<World> {
  const { message, ...rest } = opts;
  return doneWorkerAt({ label: 'land-gate', ...rest, work: (wt) => commitFile(wt, 'greet.txt', 'hello\n', message ?? 'add a greeting'), report: 'Added greet.txt.\n' });
}

async function refusal(p: Promise<unknown>): Promise<HandError> {
  const e = await p.then(() => null, (x: unknown) => x);
  if (!(e instanceof HandError)) throw new Error(`expected a typed refusal, got ${String(e)}`);
  return e;
}

describe('the landing gate is a worker machine state (hand land / approve / reject)', () => {
  it('a land that arrives while the report is still being checked (right after `hand wait --until settled`) waits for done, then opens the gate', async () => {
    let slow: Promise<void> | null = null;
    const w = await doneWorker({ reportCheck: () => slow ?? Promise.resolve() });
    let release!: () => void;
    slow = new Promise<void>((resolve) => (release = resolve));
    // Another turn: work, then idle again — the report is looked for again, slowly this time.
    w.h.host.show(w.pane, reading({ state: 'working', fingerprint: 'f-w2' }));
    await settle(w.h);
    await showTurnEnd(w.h, w.pane, reading({ fingerprint: 'f-idle3' }));
    expect(w.h.fleet.view('T-1')!.stage).toBe('settled.checking');
    const landing = w.handlers.land!({ id: 'T-1' }, ctx) as Promise<{ gate: string; stage: string }>;
    await settle(w.h);
    release();
    const opened = await landing;
    expect(opened).toMatchObject({ gate: 'open', stage: 'landing.awaitingApproval' });
  });

  it('lands a worker commit by fast-forward on a local-only project only after approval, then tears down to landed', async () => {
    const w = await doneWorker();
    const mainBefore = git(w.repo, 'rev-parse', 'main');
    const opened = (await w.handlers.land!({ id: 'T-1' }, ctx)) as { gate: string; waitingFor: string; evidence: { diffStat: string; commits: number } };
    expect(opened.gate).toBe('open');
    expect(opened.waitingFor).toContain('hand approve T-1');
    expect(opened.evidence.diffStat).toContain('greet.txt');
    expect(opened.evidence.commits).toBe(1);
    expect(w.h.fleet.view('T-1')).toMatchObject({ stage: 'landing.awaitingApproval', gate: 'landing approval' });
    expect(git(w.repo, 'rev-parse', 'main')).toBe(mainBefore); // nothing lands before approval
    expect(((await w.handlers.landings!({}, ctx)) as unknown[]).length).toBe(1);

    const done = await w.handlers.approve({ id: 'T-1' }, ctx);
    expect(done).toMatchObject({ stage: 'landed', landed: { target: 'main', via: 'merge --ff-only' }, teardown: { done: true } });
    expect(git(w.repo, 'rev-parse', 'main')).toBe(git(w.repo, 'rev-parse', 'worktree-T-1'));
    expect(w.h.host.sent.map((s) => s.text).filter(Boolean)).toContain('/exit');
    expect(w.h.host.panes.has(w.pane)).toBe(false);
    expect(existsSync(w.worktree)).toBe(false);
    expect(existsSync(join(w.briefDir, 'report.md'))).toBe(true);
    expect(existsSync(join(w.briefDir, 'brief.md'))).toBe(true);
    expect(((await w.handlers.landings!({}, ctx)) as unknown[]).length).toBe(0);
  });

  it('refuses a landing whose commit carries Co-Authored-By: Claude, opening no gate', async () => {
    const w = await doneWorker({ message: 'add a greeting\n\nCo-Authored-By: Claude <noreply@anthropic.com>' });
    expect((await refusal(w.handlers.land!({ id: 'T-1' }, ctx))).code).toBe('landing-attribution');
    expect(w.h.fleet.view('T-1')!.stage).toBe('done');
    expect(await refusal(w.handlers.approve!({ id: 'T-1' }, ctx))).toMatchObject({ code: 'no-open-gate' });
    expect(git(w.repo, 'rev-parse', 'main')).not.toBe(git(w.repo, 'rev-parse', 'worktree-T-1'));
  });

  it('skips the gate under yolo, never the checks', async () => {
    const w = await doneWorker({ yolo: true });
    const out = (await w.handlers.land!({ id: 'T-1' }, ctx)) as { gate: string; stage: string };
    expect(out).toMatchObject({ gate: 'skipped-yolo', stage: 'landed' });
    expect(git(w.repo, 'rev-parse', 'main')).toBe(git(w.repo, 'rev-parse', 'worktree-T-1'));
    expect(w.h.fleet.view('T-1')!.landing?.approvedBy).toBe('yolo');
  });

  it('reject needs a reason, lands nothing, and returns the worker to done with the reason in view', async () => {
    const w = await doneWorker();
    await w.handlers.land!({ id: 'T-1' }, ctx);
    // The reason is required at the daemon's edge (the method's parser), before the handler runs.
    const rejectRaw = (raw: WireObject) => Promise.resolve().then(() => w.handlers.reject(PARAM_PARSERS.reject(raw)));
    expect((await refusal(rejectRaw({ id: 'T-1' }))).code).toBe('reason-required');
    expect((await refusal(rejectRaw({ id: 'T-1', reason: '   ' }))).code).toBe('reason-required');
    expect(await w.handlers.reject({ id: 'T-1', reason: 'greeting must be localised' })).toEqual({ id: 'T-1', gate: 'rejected', stage: 'done', reason: 'greeting must be localised' });
    expect(w.h.fleet.view('T-1')!.rejection).toMatchObject({ gate: 'landing', reason: 'greeting must be localised' });
    expect((await refusal(w.handlers.approve!({ id: 'T-1' }, ctx))).code).toBe('no-open-gate');
    expect(existsSync(w.worktree)).toBe(true);
  });

  it('refuses an approval when the branch moved after the gate opened, keeping the gate open', async () => {
    const w = await doneWorker();
    await w.handlers.land!({ id: 'T-1' }, ctx);
    commitFile(w.worktree, 'more.txt', 'more\n', 'one more change');
    expect((await refusal(w.handlers.approve!({ id: 'T-1' }, ctx))).code).toBe('gate-evidence-changed');
    expect(w.h.fleet.view('T-1')!.stage).toBe('landing.awaitingApproval');
    expect(git(w.repo, 'rev-parse', 'main')).not.toBe(git(w.repo, 'rev-parse', 'worktree-T-1'));
  });

  it('never lands a parked worker, nor one without a report', async () => {
    const w = await doneWorker();
    rmSync(join(w.briefDir, 'report.md'));
    expect((await refusal(w.handlers.land!({ id: 'T-1' }, ctx))).code).toBe('no-report');
    expect(w.h.fleet.view('T-1')!.stage).toBe('done');
  });

  it('leaves the worktree alone when the worker would not stop (landed, teardown timed out)', async () => {
    const w = await doneWorker();
    w.h.host.onSend = () => {}; // the agent ignores /exit
    await w.handlers.land!({ id: 'T-1' }, ctx);
    const approving = w.handlers.approve!({ id: 'T-1' }, ctx) as Promise<{ stage: string; teardown: { done: boolean } }>;
    // The landing runs real git: wait (bounded) until the machine is stopping the agent, then let the stop deadline pass.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`T-1 never reached teardown after approval (at ${w.h.fleet.view('T-1')!.stage})`)), 20_000);
      const check = (stage: string) => {
        if (!stage.startsWith('teardown')) return;
        clearTimeout(timer);
        off();
        resolve();
      };
      const off = w.h.fleet.subscribe((v) => v.id === 'T-1' && check(v.stage));
      check(w.h.fleet.view('T-1')!.stage);
    });
    await settle(w.h);
    w.h.clock.increment(31_000);
    const out = await approving;
    expect(out).toMatchObject({ stage: 'teardown.timedOut', teardown: { done: false } });
    expect(git(w.repo, 'rev-parse', 'main')).toBe(git(w.repo, 'rev-parse', 'worktree-T-1'));
    expect(existsSync(w.worktree)).toBe(true);
  });

  it('refuses a direct-PR landing at `hand land` when gh is not installed', async () => {
    const emptyBin = makeTempDir('land-gate-bin');
    temps.push(emptyBin.cleanup);
    const w = await doneWorker({ posture: 'direct-PR', env: { PATH: emptyBin.path } });
    const err = await refusal(w.handlers.land!({ id: 'T-1' }, ctx));
    expect(err.code).toBe('gh-missing');
    expect(err.message).toContain('sudo apt-get install gh');
    expect(w.h.fleet.view('T-1')!.stage).toBe('done');
  });

  it('refuses to land a no-mistakes project whose gate run cannot be read (no-mistakes not on PATH)', async () => {
    const w = await doneWorker({ posture: 'no-mistakes' });
    // The gate's run decides a no-mistakes landing (tests/review-gate covers it against the double).
    expect((await refusal(w.handlers.land!({ id: 'T-1' }, ctx))).code).toBe('gate-unreadable');
  });
});
