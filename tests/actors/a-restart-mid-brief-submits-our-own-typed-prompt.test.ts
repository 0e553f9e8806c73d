/**
 * Rule: a daemon killed between typing the first prompt and pressing its Enter leaves a worker
 * that, once restored, recognises its own prompt in the box and submits it — never a worker
 * marked failed (not live, unstoppable, its id taken) while its agent runs on with the prompt
 * unsent. The senders here apply the glass check the real port applies (io/terminal/
 * guarded-send.ts): a box holding text refuses with the text quoted.
 */
import { describe, it, expect } from 'vitest';
import { dispatchBrief, settle, showStartScreen, type Harness, useHarness } from './helpers/harness.ts';
import { reading, type ScriptedHost } from './helpers/scripted-host.ts';
import { PromptBoxNotEmptyError } from '../../contract/errors.ts';
import { conditionOf } from '../../actors/wait-report.ts';
import type { WorkerPorts } from '../../io/ports/worker-ports.ts';

const PROMPT = 'Read /data/w1/brief.md and follow it; write your report to /data/w1/report.md when done.';

let h: Harness;
const harness = useHarness();

/** The real port's order: check the box at the glass, then type (and, unless held, press Enter). */
function glassCheckedPorts(state: { holdBeforeEnter: boolean }): Partial<WorkerPorts> {
  return {
    async sendText(host, paneId, text, o) {
      const box = (host as ScriptedHost).panes.get(paneId)!.reading.promptBox;
      if (!o.allowNonEmptyBox && box) throw new PromptBoxNotEmptyError(paneId, box, 'typed');
      await host.typeText(paneId, text);
      (host as ScriptedHost).panes.get(paneId)!.reading = reading({ fingerprint: 'f-typed', promptBox: text, promptBoxKind: 'typed' });
      // The daemon dies here: the text is in the box, its Enter never went out.
      if (state.holdBeforeEnter) await new Promise(() => {});
      await host.sendKey(paneId, 'enter');
    },
    sendKey: (host, paneId, key) => host.sendKey(paneId, key),
  };
}

async function killedBetweenTypingAndEnter(boxAfterRestart: string): Promise<string> {
  const state = { holdBeforeEnter: true };
  h = await harness.start({ ports: glassCheckedPorts(state) });
  const v = await dispatchBrief(h, 'w1', PROMPT);
  const pane = v.paneId!;
  await showStartScreen(h, pane);
  expect(h.fleet.view('w1')!.stage).toBe('briefing.sending');
  state.holdBeforeEnter = false;
  h.host.panes.get(pane)!.reading = reading({ fingerprint: 'f-typed', promptBox: boxAfterRestart, promptBoxKind: 'typed' });
  // The agent takes an Enter by starting work (what the mock and Claude Code do).
  h.host.onSend = (p, rec) => {
    if (rec.key === 'enter') queueMicrotask(() => h.host.show(p, reading({ state: 'working', fingerprint: 'f-w1', promptBox: '' })));
  };
  const { restored } = await h.restart();
  expect(restored).toEqual(['w1']);
  await settle(h);
  return pane;
}

describe('a restart between typing the first prompt and its Enter submits our own prompt', () => {
  it('the restored worker finds its own prompt in the box, presses Enter once, and goes on live', async () => {
    const pane = await killedBetweenTypingAndEnter(PROMPT);
    const enters = h.host.sent.filter((s) => s.kind === 'key' && s.key === 'enter');
    expect(enters).toHaveLength(1);
    expect(enters[0]!.reading.promptBox).toBe(PROMPT);
    // Typed once, in the first life: never typed a second time into the box.
    expect(h.host.sent.filter((s) => s.kind === 'text')).toHaveLength(1);
    const v = h.fleet.view('w1')!;
    expect(v.stage).toBe('running.working');
    expect(v.live).not.toBe(false);
    expect(conditionOf(v)).not.toBe('gone');
    expect(h.host.panes.get(pane)!.info.alive).toBe(true);
  });

  it('text in the box that is not our prompt is not submitted: the worker is blocked with a problem, never failed', async () => {
    await killedBetweenTypingAndEnter('something a person typed');
    expect(h.host.sent.filter((s) => s.kind === 'key')).toHaveLength(0);
    const v = h.fleet.view('w1')!;
    expect(v.stage).toBe('briefing.blocked');
    expect(v.problem).toMatch(/something a person typed/);
    expect(conditionOf(v)).toBe('blocked');
  });
});
