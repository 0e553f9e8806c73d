/**
 * Guard rules that the contract suite does not reach with the mock agent: fail-open on an
 * unreadable screen or a failed read, and every key validated before the first is sent.
 */
import { describe, expect, it } from 'vitest';
import { PromptBoxNotEmptyError } from '../../contract/errors.ts';
import { guardedSendText, sendKeysOneByOne } from '../../io/terminal/guarded-send.ts';
import { InvalidKeyError } from '../../io/terminal/keys.ts';
import { screenText, waitForReading } from './mock-worker.ts';
import { usePtyPanes } from './pty-panes.ts';

describe('send guards', () => {
  const panes = usePtyPanes('guard', { submitDelayMs: 20 });
  const catPane = () => panes.pane(() => ['cat']);

  it('an unreadable screen fails open: the text is sent', async () => {
    const pane = await catPane();
    // An empty screen is unreadable (no row reaches 40 columns): the guard cannot tell, so it sends.
    await guardedSendText(panes.host(), pane.paneId, 'sent through an unreadable screen');
    await waitForReading(panes.host(), pane.paneId, (_r, s) => screenText(s).includes('sent through an unreadable screen'), 'the echoed text');
  });

  it('a failed read fails open: the send is attempted, not refused', async () => {
    const err = await guardedSendText(panes.host(), 'pty-404', 'hello').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(PromptBoxNotEmptyError);
    expect(String(err)).toMatch(/no pty pane pty-404/);
  });

  it('every key is validated before the first is sent', async () => {
    const pane = await catPane();
    await expect(sendKeysOneByOne(panes.host(), pane.paneId, [{ char: 'a' }, { char: 'bc' }])).rejects.toBeInstanceOf(InvalidKeyError);
    // Proof by ordering: a later key arrives after anything sent before it.
    await panes.host().sendKey(pane.paneId, { char: 'z' });
    const seen = await waitForReading(panes.host(), pane.paneId, (_r, s) => screenText(s).includes('z'), 'the probe key');
    expect(screenText(seen.screen)).not.toContain('a');
  });

  it('keys go one per call with the screen read back after each', async () => {
    const pane = await catPane();
    const reads = await sendKeysOneByOne(panes.host(), pane.paneId, [{ char: 'x' }, { char: 'y' }], { settleMs: 5_000 });
    expect(reads.map((r) => r.ok && screenText(r.screen).trim())).toEqual(['x', 'xy']);
  });
});
