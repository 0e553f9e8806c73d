/**
 * `hand stop` of a worker whose turn is still running (reference §2.13, claude-code §6.7), through
 * the real wiring on a scripted host: the scripted agent reacts to keys the way the real one does.
 */
import { describe, it, expect } from 'vitest';
import { settle, type Harness, advance, useHarness, show } from './helpers/harness.ts';
import { reading, type SentRecord } from './helpers/scripted-host.ts';
import { INTERRUPT_SETTLE_MS, CLEAR_SETTLE_MS, ESCAPE_SETTLE_MS, BOX_NOT_CLEARED } from '../../machines/worker.machine.ts';

const PROMPT = 'MODE:hang stall the stream';
let h: Harness;
const harness = useHarness();

/** What went out, one entry per port call: key names and typed text. */
const sentLog = (): string[] => h.host.sent.map((s) => (s.kind === 'key' ? `key:${String(s.key)}` : `text:${s.text}`));

/** Start w1 working on the module's harness; its pane. */
async function w1Working(): Promise<string> {
  const started = await harness.working('w1');
  h = started.h;
  return started.pane;
}

/** What the agent shows when Escape before any reply text puts our prompt back in the box. */
const promptBack = reading({ fingerprint: 'f-restored', promptBox: PROMPT, promptBoxKind: 'typed' });

/** The agent's answer to each send; /exit always ends it (the box was checked by the machine). */
function agent(react: (pane: string, rec: SentRecord) => void): void {
  h.host.onSend = (pane, rec) => {
    if (rec.text === '/exit') queueMicrotask(() => h.host.exit(pane, 0));
    else queueMicrotask(() => react(pane, rec));
  };
}

describe('teardown of a busy worker', () => {
  it('stop of a working worker presses Escape, waits for the turn to end, then types /exit', async () => {
    await w1Working();
    const before = h.host.sent.length;
    // Escape mid-stream: the turn ends and the box comes back empty.
    agent((pane, rec) => { if (rec.key === 'escape') h.host.show(pane, reading({ fingerprint: 'f-interrupted' })); });
    const res = await h.fleet.stop('w1');
    expect(sentLog().slice(before)).toEqual(['key:escape', 'text:/exit']);
    // The screen was read back between the two: /exit went to a screen that no longer said working.
    expect(h.host.sent.at(-1)!.reading.state).toBe('idle');
    expect(res).toMatchObject({ exitCode: 0, paneReusable: true });
    expect(res.view.stage).toBe('stopped');
  });

  it('Escape before any reply text puts the prompt back: one ctrl-u clears it, the box is read back empty, then /exit', async () => {
    await w1Working();
    const before = h.host.sent.length;
    agent((pane, rec) => {
      if (rec.key === 'escape') h.host.show(pane, promptBack);
      if (rec.key === 'ctrl-u') h.host.show(pane, reading({ fingerprint: 'f-cleared' }));
    });
    const res = await h.fleet.stop('w1');
    expect(sentLog().slice(before)).toEqual(['key:escape', 'key:ctrl-u', 'text:/exit']);
    const [, ctrlU, exit] = h.host.sent.slice(before);
    expect(ctrlU!.reading.promptBox).toBe(PROMPT);
    expect(exit!.reading.promptBox, '/exit typed into a box read back empty').toBe('');
    expect(res).toMatchObject({ exitCode: 0, paneReusable: true });
    expect(res.view.stage).toBe('stopped');
  });

  it('a turn that ignores Escape gets its /exit after the bounded wait; the stop then times out, pane not reusable, never a kill', async () => {
    const pane = await w1Working();
    const before = h.host.sent.length;
    h.host.onSend = () => {};
    const stopping = h.fleet.stop('w1', { timeoutMs: 30_000 });
    await settle(h);
    expect(sentLog().slice(before)).toEqual(['key:escape']);
    expect(h.fleet.view('w1')!.stage).toBe('teardown.awaitingInterrupt');
    await advance(h, INTERRUPT_SETTLE_MS - 1);
    expect(sentLog().slice(before)).toEqual(['key:escape']);
    await advance(h, 1);
    expect(sentLog().slice(before)).toEqual(['key:escape', 'text:/exit']);
    await advance(h, 30_000);
    const res = await stopping;
    expect(res).toMatchObject({ exitCode: null, paneReusable: false });
    expect(res.view.stage).toBe('teardown.timedOut');
    // One Escape only, no ctrl-c, and the pane (with its agent) is left alone.
    expect(sentLog().slice(before)).toEqual(['key:escape', 'text:/exit']);
    expect(h.host.panes.has(pane)).toBe(true);
  });

  it('ctrl-u that leaves the text in the box withholds /exit: the stop ends timed out with the reason', async () => {
    await w1Working();
    const before = h.host.sent.length;
    agent((pane, rec) => {
      if (rec.key === 'escape') h.host.show(pane, promptBack);
    });
    const stopping = h.fleet.stop('w1');
    await settle(h);
    expect(h.fleet.view('w1')!.stage).toBe('teardown.awaitingClear');
    await advance(h, CLEAR_SETTLE_MS);
    const res = await stopping;
    expect(sentLog().slice(before)).toEqual(['key:escape', 'key:ctrl-u']);
    expect(res).toMatchObject({ paneReusable: false });
    expect(res.view.stage).toBe('teardown.timedOut');
    expect(res.view.problem).toBe(BOX_NOT_CLEARED);
  });

  it('a menu is still Escaped first and given its settle time; no ctrl-u over a suggestion', async () => {
    const pane = await w1Working();
    await show(h, pane, reading({ state: 'blocked', awaitingInput: true, blockedReason: 'permission', promptBox: null, promptBoxKind: null, fingerprint: 'f-menu' }));
    const before = h.host.sent.length;
    // The agent swallows the Escape without repainting: only the settle time moves teardown on.
    h.host.onSend = (p, rec) => { if (rec.text === '/exit') queueMicrotask(() => h.host.exit(p, 0)); };
    const stopping = h.fleet.stop('w1');
    await settle(h);
    expect(h.fleet.view('w1')!.stage).toBe('teardown.settlingAfterEscape');
    await advance(h, ESCAPE_SETTLE_MS - 1);
    expect(sentLog().slice(before)).toEqual(['key:escape']);
    await show(h, pane, reading({ fingerprint: 'f-suggested', promptBox: 'run the tests', promptBoxKind: 'suggestion' }));
    expect(sentLog().slice(before)).toEqual(['key:escape', 'text:/exit']);
    const res = await stopping;
    expect(res).toMatchObject({ exitCode: 0, paneReusable: true });
  });

  it('an idle worker with text typed in its box gets one ctrl-u before /exit, never the text submitted with /exit appended', async () => {
    const pane = await w1Working();
    await show(h, pane, reading({ fingerprint: 'f-typed', promptBox: 'half a thought', promptBoxKind: 'typed' }));
    const before = h.host.sent.length;
    agent((p, rec) => { if (rec.key === 'ctrl-u') h.host.show(p, reading({ fingerprint: 'f-cleared' })); });
    const res = await h.fleet.stop('w1');
    expect(sentLog().slice(before)).toEqual(['key:ctrl-u', 'text:/exit']);
    expect(res).toMatchObject({ exitCode: 0, paneReusable: true });
  });
});
