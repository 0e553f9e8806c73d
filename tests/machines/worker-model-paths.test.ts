/**
 * Model-based: paths generated from the worker machine with @xstate/graph, each replayed against
 * the REAL wiring (createFleetHost + scripted host + in-memory store + simulated clock), checking
 * the safety rules at every step.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import { workerMachine } from '../../machines/worker.machine.ts';
import type { WorkerEvent } from '../../machines/worker.types.ts';
import type { ScreenReading } from '../../io/screen/types.ts';
import { stagePath } from '../../actors/worker-view.ts';
import { makeHarness, settle, show, intent, STALL_MS, T0 } from '../actors/helpers/harness.ts';
import { reading } from '../actors/helpers/scripted-host.ts';
import { UNREADABLE_READING } from '../../io/screen/unreadable.ts';
import { ESCAPE_SETTLE_MS, RESUBMIT_AFTER_MS, BRIEF_QUIET_MS, BRIEF_CONFIRM_MS, STARTUP_SETTLE_MS, SETTLE_QUIET_MS, MAX_BRIEF_RETRIES, INTERRUPT_SETTLE_MS, CLEAR_SETTLE_MS, UNCLASSIFIED_MS } from '../../machines/worker.machine.ts';
import { isTurnRunning, boxHoldsTypedText } from '../../machines/worker.guards.ts';

const R: Record<string, ScreenReading> = {
  idle: reading({ fingerprint: 'f-idle' }),
  idle2: reading({ fingerprint: 'f-idle2' }),
  typed: reading({ fingerprint: 'f-typed', promptBox: 'half a thought', promptBoxKind: 'typed' }),
  // Nobody wrote this: /exit displaces it, ctrl-u is never spent on it.
  suggested: reading({ fingerprint: 'f-suggested', promptBox: 'run the tests', promptBoxKind: 'suggestion' }),
  // Our first prompt ('brief') still in the box: its Enter was lost.
  ours: reading({ fingerprint: 'f-ours', promptBox: 'brief', promptBoxKind: 'typed' }),
  work1: reading({ state: 'working', fingerprint: 'f-w1' }),
  work2: reading({ state: 'working', fingerprint: 'f-w2' }),
  menu: reading({ state: 'blocked', awaitingInput: true, blockedReason: 'permission', promptBox: null, promptBoxKind: null, fingerprint: 'f-menu' }),
  blind: { ...UNREADABLE_READING },
};
const FAR = 9e15;
const done = (state: string, output?: unknown) => ({ type: `xstate.done.actor.0.worker.${state}`, output }) as unknown as WorkerEvent;
const person: WorkerEvent[] = [
  { type: 'SEND', text: 'steer', allowNonEmptyBox: false, requestId: 0 },
  { type: 'SEND', text: 'steer anyway', allowNonEmptyBox: true, requestId: 0 },
  { type: 'KEYS', key: 'enter', allowNonEmptyBox: false, requestId: 0 },
  { type: 'STOP', at: 0, timeoutMs: 30_000 },
];
const screens: WorkerEvent[] = Object.values(R).map((r) => ({ type: 'SCREEN', reading: r, at: 0 }));
const later: WorkerEvent[] = [
  { type: 'EXITED', code: 0, at: 0 },
  { type: 'DEADLINE', name: 'stall', at: FAR },
  { type: 'DEADLINE', name: 'escape-settle', at: FAR },
  { type: 'DEADLINE', name: 'interrupt-settle', at: FAR },
  { type: 'DEADLINE', name: 'clear-settle', at: FAR },
  { type: 'DEADLINE', name: 'stop', at: FAR },
  { type: 'DEADLINE', name: 'resubmit', at: FAR },
  { type: 'DEADLINE', name: 'brief-quiet', at: FAR },
  { type: 'DEADLINE', name: 'brief-confirm', at: FAR },
  { type: 'DEADLINE', name: 'startup-settle', at: FAR },
  { type: 'DEADLINE', name: 'settle-quiet', at: FAR },
];
const isDeadline = (e: WorkerEvent, name?: string) => e.type === 'DEADLINE' && (name === undefined || e.name === name);

function autoEvents(s: { matches(v: unknown): boolean }): WorkerEvent[] {
  const auto: WorkerEvent[] = [];
  if (s.matches('preparing')) auto.push(done('preparing'));
  if (s.matches('seeding')) auto.push(done('seeding'));
  if (s.matches('spawning')) auto.push(done('spawning', { paneId: '%1', at: T0 }));
  if (s.matches({ briefing: 'sending' })) auto.push(done('briefing.sending', { at: T0 }));
  if (s.matches({ briefing: 'resubmitting' })) auto.push(done('briefing.resubmitting', { at: T0 }));
  if (s.matches({ settled: 'checking' })) auto.push(done('settled.checking', { exists: true }), done('settled.checking', { exists: false }));
  if (s.matches('reporting')) auto.push(done('reporting', { waitingOn: null }), done('reporting', { waitingOn: 'hold-7' }));
  if (s.matches({ teardown: 'escaping' })) auto.push(done('teardown.escaping', { at: T0 }));
  if (s.matches({ teardown: 'interrupting' })) auto.push(done('teardown.interrupting', { at: T0 }));
  if (s.matches({ teardown: 'clearingBox' })) auto.push(done('teardown.clearingBox', { at: T0 }));
  if (s.matches({ teardown: 'exiting' })) auto.push(done('teardown.exiting', { at: T0 }));
  return auto;
}

function eventsFor(s: { matches(v: unknown): boolean; status: string }): WorkerEvent[] {
  // A final snapshot takes no events (the traversal would otherwise keep transitioning it).
  if (s.status !== 'active') return [];
  // Auto steps resolve on their own in the real wiring; keep the model from racing them.
  const auto = autoEvents(s);
  if (auto.length) return auto;
  // With a stop timeout longer than the Escape settle time, the settle deadline always fires first.
  if (s.matches({ teardown: 'settlingAfterEscape' })) return [...screens, ...person, ...later].filter((e) => !isDeadline(e, 'stop') && !isDeadline(e, 'resubmit'));
  // Likewise the interrupt and ctrl-u settle times are shorter than the stop timeout.
  if (s.matches({ teardown: 'awaitingInterrupt' })) return [...screens, ...person, ...later].filter((e) => !isDeadline(e) || isDeadline(e, 'interrupt-settle'));
  if (s.matches({ teardown: 'awaitingClear' })) return [...screens, ...person, ...later].filter((e) => !isDeadline(e) || isDeadline(e, 'clear-settle'));
  // The resubmit grace time is the shortest timer while it is armed: no other deadline fires first.
  if (s.matches({ briefing: 'unsubmitted' })) return [...screens, ...person, ...later].filter((e) => !isDeadline(e) || isDeadline(e, 'resubmit'));
  // So is the quiet period of an idle screen seen after the brief without work.
  if (s.matches({ briefing: 'quieting' })) return [...screens, ...person, ...later].filter((e) => !isDeadline(e) || isDeadline(e, 'brief-quiet'));
  // Confirming after the brief arms only its confirmation deadline.
  if (s.matches({ briefing: 'confirming' })) return [...screens, ...person, ...later].filter((e) => !isDeadline(e) || isDeadline(e, 'brief-confirm'));
  // And the settle time of the first idle start screen (no other deadline is armed while starting).
  // The quiet window of an idle screen after work is the only deadline armed there.
  if (s.matches({ running: 'finishing' })) return [...screens, ...person, ...later].filter((e) => !isDeadline(e) || isDeadline(e, 'settle-quiet'));
  // Text in the box at start-up: only the first prompt's due time runs.
  if (s.matches({ starting: 'occupied' })) return [...screens, ...person, ...later].filter((e) => !isDeadline(e) || isDeadline(e, 'startup-settle'));
  if (s.matches({ starting: 'settling' })) return [...screens, ...person, ...later].filter((e) => !isDeadline(e) || isDeadline(e, 'startup-settle'));
  return [...screens, ...person, ...later].filter((e) => !isDeadline(e, 'resubmit') && !isDeadline(e, 'brief-quiet') && !isDeadline(e, 'brief-confirm') && !isDeadline(e, 'startup-settle') && !isDeadline(e, 'settle-quiet'));
}

const generated = getShortestPaths(workerMachine, {
  input: { id: 'm1', backend: 'tmux', agent: 'mock', reportPath: '/data/m1/report.md', firstPrompt: 'brief', stallMs: STALL_MS, at: T0 },
  events: eventsFor as never,
  serializeState: (s) => {
    const c = s.context;
    // The brief's fingerprint is read only while briefing: elsewhere it would split equal states.
    return JSON.stringify([s.value, c.fingerprint, c.reading?.fingerprint ?? null, s.matches('briefing') ? c.briefFingerprint : null]);
  },
  limit: 20_000,
});
// A path that ends in a phase the wiring leaves by itself (a port call in flight) is a prefix of
// a longer path; the real system cannot be held there, so it is compared where it rests.
const paths = generated.filter((p) => p.state.status !== 'active' || autoEvents(p.state as never).length === 0);

const isAuto = (e: { type: string }) => e.type.startsWith('xstate.') && e.type !== 'xstate.init';
let ran = 0;

describe(`worker model paths replayed against the real wiring (${paths.length} paths)`, () => {
  afterAll(() => {
    console.log(`model-based: ${ran} of ${paths.length} generated paths replayed`);
  });

  for (const path of paths) {
    const label = path.steps.map((s) => (s.event as { type: string }).type.replace('xstate.done.actor.0.worker.', 'done:')).join(' → ');
    it(`${stagePath(path.state.value)} via ${label}`, async () => {
      const reportAnswers: boolean[] = [];
      const parkAnswers: (string | null)[] = [];
      // The ports answer the way the path says they did, in the order the machine asks.
      for (const st of path.steps) {
        const out = (st.event as { output?: { exists?: boolean; waitingOn?: string | null } }).output;
        if (st.event.type.endsWith('settled.checking')) reportAnswers.push(out!.exists!);
        if (st.event.type.endsWith('worker.reporting')) parkAnswers.push(out!.waitingOn ?? null);
      }
      let lastReportAnswer: boolean | null = null;
      const ports = {
        reportExists: async () => (lastReportAnswer = reportAnswers.shift() ?? false),
        readReport: async () => ({ waitingOn: parkAnswers.shift() ?? null }),
      };
      const hh = makeHarness({ ports });
      await hh.fleet.start();
      const view = await hh.fleet.dispatch({ intent: intent('m1'), stallMs: STALL_MS, firstPrompt: 'brief' });
      const pane = view.paneId!;
      let allow = false;
      let menuUpAtStop = false;
      let turnRunningAtStop = false;
      let stopIndex = -1;
      let stops = 0;
      /** A ctrl-u whose next send (in the same stop) must be /exit. */
      let ctrlUPending: number | null = null;
      const violations: string[] = [];
      let prevStage = '';
      hh.host.onSend = (_p, rec) => {
        const r = rec.reading;
        if (rec.origin === 'automatic' && rec.kind === 'key' && rec.key === 'enter') {
          // The only Enter the machine presses on its own: our first prompt, still in the box.
          if (r.promptBox !== 'brief') violations.push(`automatic Enter with ${JSON.stringify(r.promptBox)} in the box`);
          if (hh.host.sent.filter((x) => x.origin === 'automatic' && x.key === 'enter').length > MAX_BRIEF_RETRIES) violations.push('more automatic Enters than the retry bound');
          // The agent takes it: the box empties on the screen we briefed from.
          const briefed = JSON.parse(hh.store.workers.get('m1')!.snapshotJson!).context.briefFingerprint as string;
          queueMicrotask(() => hh.host.show(_p, reading({ fingerprint: briefed })));
        }
        const stage = hh.fleet.view('m1')!.stage;
        // The first prompt goes out only when the start screen's settle time ran out, never on sight.
        if (rec.origin === 'automatic' && rec.kind === 'text' && rec.text === 'brief' && prevStage !== 'starting.settling') {
          violations.push(`first prompt typed from ${prevStage}, not after the start screen settled`);
        }
        if (ctrlUPending !== null) {
          if (ctrlUPending === stops && rec.text !== '/exit') violations.push(`${rec.text ?? String(rec.key)} sent right after teardown's ctrl-u (only /exit may follow it)`);
          ctrlUPending = null;
        }
        if (rec.kind === 'key' && rec.key === 'ctrl-u') {
          if (!stage.startsWith('teardown.')) violations.push(`ctrl-u sent outside teardown (stage ${stage})`);
          if (!boxHoldsTypedText(r)) violations.push(`ctrl-u sent with no typed text in the box (${JSON.stringify(r.promptBox)}, ${r.promptBoxKind})`);
          ctrlUPending = stops;
        }
        if (rec.text === '/exit') {
          if (turnRunningAtStop && !hh.host.sent.slice(stopIndex).some((x) => x.origin === 'automatic' && x.key === 'escape')) {
            violations.push('/exit sent to a worker whose turn was running without an Escape first');
          }
          if (boxHoldsTypedText(r)) violations.push(`/exit typed after text left in the box (${JSON.stringify(r.promptBox)})`);
        }
        const boxHasText = r.readable && r.promptBox !== null && r.promptBox !== '';
        const isExit = rec.text === '/exit';
        if (rec.kind === 'text' && boxHasText && !allow && !isExit) violations.push(`sent ${rec.text} into a box holding ${r.promptBox}`);
        const submits = rec.kind === 'text' || rec.key === 'enter';
        if (submits && rec.origin === 'automatic' && r.readable && r.awaitingInput) violations.push(`automatic Enter at a blocked worker (${rec.text ?? 'enter'})`);
        if (isExit && menuUpAtStop) {
          const sinceStop = hh.host.sent.slice(hh.host.sent.findLastIndex((s) => s.origin === 'person' && s.kind === 'key' && s.key === 'escape'));
          if (!sinceStop.some((s) => s.key === 'escape')) violations.push('/exit sent while a menu was up without Escape first');
        }
      };
      const steps = path.steps;
      for (let i = 0; i < steps.length; i++) {
        const ev = steps[i]!.event as WorkerEvent | { type: string };
        const type = ev.type;
        if (type === 'xstate.init' || isAuto(ev)) {
          // resolved by the fake ports
        } else if (type === 'SCREEN') {
          // (a could-not-tell screen after a working one reaches the machine once the feed's hold is over: show waits it out)
          await show(hh, pane, (ev as Extract<WorkerEvent, { type: 'SCREEN' }>).reading);
        } else if (type === 'EXITED') {
          hh.host.exit(pane, 0);
        } else if (type === 'DEADLINE') {
          const name = (ev as Extract<WorkerEvent, { type: 'DEADLINE' }>).name;
          const ms = { stall: STALL_MS, 'escape-settle': ESCAPE_SETTLE_MS, 'interrupt-settle': INTERRUPT_SETTLE_MS, 'clear-settle': CLEAR_SETTLE_MS, resubmit: RESUBMIT_AFTER_MS, 'brief-quiet': BRIEF_QUIET_MS, 'brief-confirm': BRIEF_CONFIRM_MS, 'startup-settle': STARTUP_SETTLE_MS, 'settle-quiet': SETTLE_QUIET_MS, stop: 30_000, unclassified: UNCLASSIFIED_MS }[name];
          hh.clock.increment(ms);
        } else if (type === 'SEND' || type === 'KEYS' || type === 'STOP') {
          hh.host.origin = 'person';
          const e = ev as WorkerEvent;
          if (e.type === 'SEND') {
            allow = e.allowNonEmptyBox;
            await hh.fleet.send('m1', e.text, { allowNonEmptyBox: e.allowNonEmptyBox }).catch(() => {});
          } else if (e.type === 'KEYS') {
            allow = e.allowNonEmptyBox;
            await hh.fleet.key('m1', e.key, { allowNonEmptyBox: e.allowNonEmptyBox }).catch(() => {});
          } else {
            const r = hh.host.current(pane);
            menuUpAtStop = r.readable && r.awaitingInput;
            // A STOP that retries a timed-out teardown starts a new attempt; one already running ignores it.
            if (!hh.fleet.view('m1')!.stage.startsWith('teardown.') || hh.fleet.view('m1')!.stage === 'teardown.timedOut') {
              turnRunningAtStop = isTurnRunning(r);
              stopIndex = hh.host.sent.length;
              stops++;
            }
            void hh.fleet.stop('m1').catch(() => {});
          }
        }
        await settle(hh);
        hh.host.origin = 'automatic';
        allow = false;
        const next = steps[i + 1]?.event;
        if (next && isAuto(next)) continue;
        const v = hh.fleet.view('m1')!;
        expect(v.stage, `after step ${i} (${type})`).toBe(stagePath(steps[i]!.state.value));
        if (v.stage === 'done') expect(lastReportAnswer, 'done without a report file').toBe(true);
        if (v.stage === 'running.stalled') expect(v.readable, 'stalled on an unreadable screen').toBe(true);
        // Blocked during briefing always says why (a stage alone is a problem nobody reads).
        if (v.stage === 'briefing.blocked') expect(v.problem, 'briefing.blocked without a problem').toBeTruthy();
        // Straight from briefing to a settled outcome: only over a box shown empty.
        if (prevStage.startsWith('briefing') && /^(settled|reporting|done|parked)/.test(v.stage)) {
          expect(v.promptBox, 'settled while the first prompt sat unsubmitted in the box').toBe('');
        }
        prevStage = v.stage;
      }
      expect(violations).toEqual([]);
      ran++;
      await hh.fleet.shutdown();
    });
  }
});
