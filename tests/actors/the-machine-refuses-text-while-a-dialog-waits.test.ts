/**
 * The worker machine's own guard (the one send path: fleet host `send` → SEND → deliverText),
 * with transparent senders so no glass check helps: while the latest reading waits on a dialog,
 * SEND is refused with `awaiting-input` (the box override does not lift it), the refusal carries
 * the dialog the reading saw, and nothing reaches the pane. Keys still go through (that is how a
 * dialog is answered), and a cursor on a free-text field takes the text.
 */
import { describe, expect, it } from 'vitest';
import { HandError } from '../../contract/errors.ts';
import type { DialogReading } from '../../io/screen/types.ts';
import { makeHarness, toWorking, show } from './helpers/harness.ts';
import { reading } from './helpers/scripted-host.ts';

const dialog = (over: Partial<DialogReading> = {}): DialogReading => ({
  fingerprint: 'aaaaaaaaaaaaaaaa', reason: 'question', question: 'Which database?', numbered: true, cursor: 1, textField: false,
  options: [{ n: 1, label: 'SQLite', freeText: false }, { n: 2, label: 'Type something.', freeText: true }],
  ...over,
});
const menu = (d: DialogReading) => reading({ state: 'blocked', awaitingInput: true, blockedReason: 'question', promptBox: null, promptBoxKind: null, fingerprint: 'f-menu', dialog: d });

describe('the machine refuses text while a dialog waits', () => {
  it('SEND into a blocked reading is refused awaiting-input, with or without the box override; nothing is sent; a key goes through', async () => {
    const h = makeHarness();
    const pane = await toWorking(h, 'w1');
    await show(h, pane, menu(dialog()));
    expect(h.fleet.view('w1')!.stage).toBe('running.blocked');
    const before = h.host.sent.length;
    for (const allowNonEmptyBox of [false, true]) {
      const err = (await h.fleet.send('w1', 'use whatever you think', { allowNonEmptyBox }).catch((e: unknown) => e)) as HandError;
      expect(err).toBeInstanceOf(HandError);
      expect(err.code).toBe('awaiting-input');
      expect(err.message).toContain('"Which database?"');
      // The dialog's words are the worker's: quoted and attributed (issue 37).
      expect(err.message).toContain('1. worker w1 wrote: "SQLite" | 2. worker w1 wrote: "Type something."');
      expect(err.message).toContain('hand answer w1 2');
      expect(err.details.dialog).toMatchObject({ fingerprint: 'aaaaaaaaaaaaaaaa' });
    }
    expect(h.host.sent.length).toBe(before);
    await h.fleet.key('w1', 'down');
    expect(h.host.sent.length).toBe(before + 1);
  });

  it('a dialog the reader could not itemise is refused too (blocked is enough)', async () => {
    const h = makeHarness();
    const pane = await toWorking(h, 'w2');
    await show(h, pane, reading({ state: 'blocked', awaitingInput: true, blockedReason: 'onboarding', promptBox: null, promptBoxKind: null, fingerprint: 'f-x' }));
    const err = (await h.fleet.send('w2', 'go').catch((e: unknown) => e)) as HandError;
    expect(err.code).toBe('awaiting-input');
    expect(err.message).toContain('onboarding');
  });

  it('with the cursor in the free-text field the send is that field\'s answer and goes through', async () => {
    const h = makeHarness();
    const pane = await toWorking(h, 'w3');
    await show(h, pane, menu(dialog({ cursor: 2, textField: true })));
    const before = h.host.sent.length;
    await h.fleet.send('w3', 'MariaDB');
    expect(h.host.sent.length).toBe(before + 1);
  });
});
