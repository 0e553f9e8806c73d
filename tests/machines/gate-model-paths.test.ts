/**
 * Model-based, for the two gates: paths generated from the worker machine with @xstate/graph
 * (with and without the dispatch gate), each replayed against the REAL wiring (createFleetHost,
 * scripted host, in-memory store, simulated clock) while checking, at every step:
 * - no worktree, agent setup or pane is made before the brief is approved (non-yolo project);
 * - a rejected brief never reached preparing;
 * - nothing is landed unless a person approved the open landing gate, or the landing was yolo;
 * - the wiring rests in the stage the model says.
 */
import { describe, it, expect } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import { workerMachine, STARTUP_SETTLE_MS, SETTLE_QUIET_MS } from '../../machines/worker.machine.ts';
import type { LandingSummary, WorkerEvent } from '../../machines/worker.types.ts';
import { stagePath } from '../../actors/worker-view.ts';
import type { LandingPort } from '../../actors/ports.ts';
import { makeHarness, settle, intent, STALL_MS, T0 } from '../actors/helpers/harness.ts';
import { reading } from '../actors/helpers/scripted-host.ts';

const R = { idle: reading({ fingerprint: 'f-idle' }), work: reading({ state: 'working', fingerprint: 'f-w1' }), idle2: reading({ fingerprint: 'f-idle2' }) };
const EVIDENCE: LandingSummary = { posture: 'local-only', base: 'main', branch: 'worktree-m1', baseSha: 'b', headSha: 'h', verdict: 'ready', diffStat: 'x', log: 'x', commits: 1, openedAt: T0, approvedBy: null };
const done = (state: string, output?: unknown) => ({ type: `xstate.done.actor.0.worker.${state}`, output }) as unknown as WorkerEvent;
const decisions: WorkerEvent[] = [
  { type: 'APPROVE', at: T0 },
  { type: 'REJECT', reason: 'no', at: T0 },
  { type: 'LAND', landing: EVIDENCE, yolo: false, at: T0 },
  { type: 'LAND', landing: EVIDENCE, yolo: true, at: T0 },
  { type: 'STOP', at: T0, timeoutMs: 30_000 },
  { type: 'EXITED', code: 0, at: T0 },
];
const screens: WorkerEvent[] = Object.values(R).map((r) => ({ type: 'SCREEN', reading: r, at: T0 }));

function autoEvents(s: { matches(v: unknown): boolean }): WorkerEvent[] {
  if (s.matches('preparing')) return [done('preparing')];
  if (s.matches('seeding')) return [done('seeding')];
  if (s.matches('spawning')) return [done('spawning', { paneId: '%1', at: T0 })];
  if (s.matches({ briefing: 'sending' })) return [done('briefing.sending', { at: T0 })];
  if (s.matches({ settled: 'checking' })) return [done('settled.checking', { exists: true })];
  if (s.matches('reporting')) return [done('reporting', { waitingOn: null })];
  if (s.matches({ landing: 'applying' })) return [done('landing.applying', { posture: 'local-only', detail: {}, tearDown: true, at: T0 })];
  if (s.matches({ landing: 'cleaning' })) return [done('landing.cleaning', { problem: null })];
  if (s.matches({ teardown: 'exiting' })) return [done('teardown.exiting', { at: T0 })];
  if (s.matches({ teardown: 'escaping' })) return [done('teardown.escaping', { at: T0 })];
  if (s.matches({ teardown: 'interrupting' })) return [done('teardown.interrupting', { at: T0 })];
  if (s.matches({ teardown: 'clearingBox' })) return [done('teardown.clearingBox', { at: T0 })];
  return [];
}

function eventsFor(s: { matches(v: unknown): boolean; status: string; context: { paneId: string | null } }): WorkerEvent[] {
  if (s.status !== 'active') return [];
  const auto = autoEvents(s);
  if (auto.length) return auto;
  // Stops are examined by worker-model-paths; here only where nothing needs tearing down yet.
  const stopOk = s.matches('gate');
  // An exit is news from a pane: none exists before the brief is approved.
  const exitOk = s.context.paneId !== null;
  // The wiring re-reads the screen after every phase change, so a working screen shown at the
  // landing gate is seen again once the gate closes; the model does not re-read, so the gate is
  // shown idle screens only (a worker back at work is worker-model-paths' subject).
  const shown = s.matches('landing') ? screens.filter((e) => e.type === 'SCREEN' && e.reading.state === 'idle') : screens;
  // The first prompt waits for the start screen to settle: its deadline is the only one armed then.
  // So is the settle window of the idle screen a turn ended on (running.finishing).
  const settleDeadline: WorkerEvent[] = s.matches({ starting: 'settling' }) ? [{ type: 'DEADLINE', name: 'startup-settle', at: T0 }]
    : s.matches({ running: 'finishing' }) ? [{ type: 'DEADLINE', name: 'settle-quiet', at: Number.MAX_SAFE_INTEGER }] : [];
  return [...shown, ...settleDeadline, ...decisions.filter((e) => (e.type !== 'STOP' || stopOk) && (e.type !== 'EXITED' || exitOk))];
}

function pathsFor(briefGate: boolean) {
  return getShortestPaths(workerMachine, {
    input: { id: 'm1', backend: 'tmux', agent: 'mock', reportPath: '/data/m1/report.md', firstPrompt: 'brief', stallMs: STALL_MS, at: T0, briefGate },
    events: eventsFor as never,
    serializeState: (st) => JSON.stringify([st.value, st.context.fingerprint, st.context.reading?.fingerprint ?? null, !!st.context.landed, st.context.paneExited]),
    limit: 5_000,
  }).filter((p) => p.state.status !== 'active' || autoEvents(p.state as never).length === 0);
}

const isAuto = (e: { type: string }) => e.type.startsWith('xstate.') && e.type !== 'xstate.init';

for (const briefGate of [true, false]) {
  const paths = pathsFor(briefGate);
  describe(`gate model paths, ${briefGate ? 'non-yolo (brief gate)' : 'yolo dispatch'} (${paths.length} paths)`, () => {
    it('reaches both gates and their outcomes', () => {
      const ends = new Set(paths.map((p) => stagePath(p.state.value)));
      for (const stage of ['landing.awaitingApproval', 'landed', ...(briefGate ? ['gate.awaitingBriefApproval', 'rejected'] : [])]) expect(ends).toContain(stage);
      if (!briefGate) expect(ends).not.toContain('gate.awaitingBriefApproval');
    });

    for (const path of paths) {
      const label = path.steps.map((s) => (s.event as { type: string; yolo?: boolean }).type.replace('xstate.done.actor.0.worker.', 'done:') + ((s.event as { yolo?: boolean }).yolo ? '(yolo)' : '')).join(' → ');
      it(`${stagePath(path.state.value)} via ${label}`, async () => {
        const made: string[] = [];
        const landed: string[] = [];
        const landing: LandingPort = {
          land: async (_i, approved) => (landed.push(approved.approvedBy ?? 'nobody'), { posture: 'local-only', detail: {}, tearDown: true }),
          removeWorktree: async () => ({ problem: null }),
        };
        const h = makeHarness({ landing, ports: { prepareWorktree: async () => void made.push('worktree'), seedAgent: async () => void made.push('seed'), reportExists: async () => true } });
        await h.fleet.start();
        await h.fleet.dispatch({ intent: intent('m1'), stallMs: STALL_MS, firstPrompt: 'brief', briefGate });
        let briefApproved = !briefGate;
        let landingApprovals = 0;
        let yoloLandings = 0;
        const ignore = () => {};
        for (let i = 0; i < path.steps.length; i++) {
          const ev = path.steps[i]!.event as WorkerEvent;
          const before = h.fleet.view('m1')!.stage;
          const pane = () => h.fleet.view('m1')!.paneId!;
          if (ev.type === 'SCREEN') h.host.show(pane(), ev.reading);
          else if (ev.type === 'EXITED') h.host.exit(pane(), 0);
          else if (ev.type === 'APPROVE') {
            if (before === 'gate.awaitingBriefApproval') briefApproved = true;
            if (before === 'landing.awaitingApproval') landingApprovals++;
            h.fleet.approve('m1').catch(ignore);
          } else if (ev.type === 'REJECT') h.fleet.reject('m1', ev.reason).catch(ignore);
          else if (ev.type === 'LAND') {
            if (ev.yolo && (before === 'done' || before === 'landing.awaitingApproval')) yoloLandings++;
            h.fleet.openLanding('m1', EVIDENCE, { yolo: ev.yolo }).catch(ignore);
          } else if (ev.type === 'STOP') h.fleet.stop('m1').catch(ignore);
          else if (ev.type === 'DEADLINE') h.clock.increment(ev.name === 'settle-quiet' ? SETTLE_QUIET_MS : STARTUP_SETTLE_MS);
          await settle(h);
          const stage = h.fleet.view('m1')!.stage;
          if (!briefApproved) {
            expect(made, `made something before the brief was approved (at ${stage})`).toEqual([]);
            expect(h.host.panes.size, 'a pane before the brief was approved').toBe(0);
          }
          if (stage === 'rejected') expect(made, 'a rejected brief reached preparing').toEqual([]);
          expect(landed.length, 'landed without a person approving the gate or yolo').toBeLessThanOrEqual(landingApprovals + yoloLandings);
          for (const who of landed) expect(['person', 'yolo']).toContain(who);
          const next = path.steps[i + 1]?.event;
          if (next && isAuto(next)) continue;
          expect(stage, `after step ${i} (${ev.type})`).toBe(stagePath(path.steps[i]!.state.value));
        }
        await h.fleet.shutdown();
      });
    }
  });
}
