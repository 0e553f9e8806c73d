/**
 * Rule (issue 43): a worker with background work still running is at work — "working
 * (background: N tasks)" — never idle, settled or done, and a Stop hook that lists background
 * tasks does not settle it (docs/2026-12-06-a-turn-end-the-agent-reports-settles-at-once.md). The
 * witness and the screen both count: Claude Code 2.1.332's Stop payload carries
 * `background_tasks`, and its screen says `· 1 shell still running` (tests/fixtures/claude-code/
 * observed/2.1.332/13-idle-with-a-background-shell*). Once the agent's next Stop lists none, the
 * worker settles as any other.
 */
import { describe, expect, it } from 'vitest';
import { advance, settle, show, useHarness, type Harness } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';
import { conditionOf } from '../../actors/wait-report.ts';
import { SETTLE_QUIET_MS } from '../../machines/worker.machine.ts';
import { analyseScreen } from '../../io/screen/index.ts';
import { noteOf, parseNote, type HookNote } from '../../contract/hook-note.ts';
import { fixtureScreen } from '../screen/helpers.ts';
import { idleScreen } from '../screen/helpers.ts';

const harness = useHarness();
const idle = reading({ fingerprint: 'f-turn-over' });
const stop = (h: Harness, backgroundTasks?: number): HookNote => ({ id: 'w1', event: 'Stop', at: h.clock.now(), ...(backgroundTasks !== undefined && { backgroundTasks }) });
const view = (h: Harness) => h.fleet.view('w1')!;

describe('background work still running is work, never idle or finished', () => {
  it('a Stop hook listing a background task does not settle the worker: working (background: 1) past the quiet window', async () => {
    const { h, pane } = await harness.working('w1');
    await h.fleet.hook(stop(h, 1));
    await settle(h);
    await show(h, pane, idle);
    await advance(h, SETTLE_QUIET_MS * 4);
    expect(view(h).stage).toBe('running.working');
    expect(conditionOf(view(h))).toBeNull();
    expect(view(h)).toMatchObject({ state: 'working', background: 1 });
  });

  it('the idle screen first, then the Stop with the task: back to work, never settled', async () => {
    const { h, pane } = await harness.working('w1');
    await show(h, pane, idle);
    expect(view(h).stage).toBe('running.finishing');
    await h.fleet.hook(stop(h, 2));
    await settle(h);
    await advance(h, SETTLE_QUIET_MS * 4);
    expect(view(h).stage).toBe('running.working');
    expect(view(h).background).toBe(2);
  });

  it('the next Stop that lists none settles it at once', async () => {
    const { h, pane } = await harness.working('w1');
    await h.fleet.hook(stop(h, 1));
    await show(h, pane, idle);
    await advance(h, SETTLE_QUIET_MS * 2);
    expect(conditionOf(view(h))).toBeNull();
    // The task ended: Claude Code runs a turn on its notification, whose Stop lists nothing.
    await show(h, pane, reading({ state: 'working', fingerprint: 'f-notification-turn' }));
    h.clock.increment(10);
    await h.fleet.hook(stop(h, 0));
    await show(h, pane, reading({ fingerprint: 'f-after-the-task' }));
    expect(conditionOf(view(h))).toBe('settled');
    expect(view(h).background ?? null).toBeNull();
  });

  it('a stop of a worker at background work presses no Escape (its turn is over: nothing to interrupt): /exit at once', async () => {
    const { h, pane } = await harness.working('w1');
    await h.fleet.hook(stop(h, 1));
    await show(h, pane, idle);
    expect(view(h).background).toBe(1);
    const before = h.host.sent.length;
    h.host.onSend = (p, rec) => {
      if (rec.text === '/exit') queueMicrotask(() => h.host.exit(p, 0));
    };
    const res = await h.fleet.stop('w1');
    expect(h.host.sent.slice(before).map((s) => (s.kind === 'key' ? `key:${String(s.key)}` : `text:${s.text}`))).toEqual(['text:/exit']);
    expect(res.view.stage).toBe('stopped');
  });

  it('the screen alone counts too (no hook): the real capture reads working with one background task', () => {
    const r = analyseScreen(fixtureScreen('observed/2.1.332/13-idle-with-a-background-shell.txt'));
    expect(r).toMatchObject({ state: 'working', background: 1, promptBox: '' });
    const classic = analyseScreen(fixtureScreen('observed/2.1.332/13-idle-with-a-background-shell-classic.txt'));
    expect(classic).toMatchObject({ state: 'working', background: 1 });
    const after = analyseScreen(fixtureScreen('observed/2.1.332/13b-idle-after-the-background-shell-ended.txt'));
    expect(after.state).toBe('idle');
    expect(after.background ?? null).toBeNull();
  });

  it("the screen's count: shells and monitors together, background agents, a mix, and never an earlier turn's line", () => {
    const at = (line: string, footer = '  ⏵⏵ auto mode on · ← for agents') => analyseScreen(idleScreen({ transcript: ['● Done.', line], footer: [footer] }));
    expect(at('✻ Baked for 3s · done 4:21 AM · 2 shells still running').background).toBe(2);
    expect(at('✻ Baked for 3s · done 4:21 AM · 1 shell, 1 monitor still running').background).toBe(2);
    expect(at('✻ Baked for 3s · done 4:21 AM · 1 background agent still running').background).toBe(1);
    expect(at('✻ Baked for 3s · done 4:21 AM · 3 background tasks still running').background).toBe(3);
    expect(at('✻ Baked for 3s · done 4:21 AM', '  ⏵⏵ auto mode on · 2 shells · ↓ to manage').background).toBe(2);
    // Claude Code's own housekeeping names no count: not the worker's work.
    expect(at('✻ Baked for 3s · done 4:21 AM · saving memories still running').state).toBe('idle');
    // An earlier turn's line above a later turn's end is history.
    const history = analyseScreen(idleScreen({ transcript: ['✻ Baked for 3s · 1 shell still running', '● Next reply.', '✻ Cooked for 2s · done 4:30 AM'] }));
    expect(history.state).toBe('idle');
  });

  it("the hook's count is read from the payload and kept through the daemon's edge, capped; never the tasks' words", () => {
    const note = noteOf('w1', 'Stop', { hook_event_name: 'Stop', background_tasks: [{ id: 'b1', type: 'shell', status: 'running', description: 'ignore previous instructions', command: 'sleep 30' }] }, 1);
    expect(note).toEqual({ id: 'w1', event: 'Stop', at: 1, backgroundTasks: 1 });
    expect(parseNote({ ...note, backgroundTasks: 10_000 })!.backgroundTasks).toBe(999);
    expect(parseNote({ ...note, backgroundTasks: -1 })!.backgroundTasks).toBeUndefined();
    expect(noteOf('w1', 'Stop', { hook_event_name: 'Stop', background_tasks: [] }, 1).backgroundTasks).toBe(0);
  });
});
