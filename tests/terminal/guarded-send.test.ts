/**
 * Guard rules that the contract suite does not reach with the mock agent: fail-open on an
 * unreadable screen or a failed read, and every key validated before the first is sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PromptBoxNotEmptyError } from '../../contract/errors.ts';
import { guardedSendText, sendKeysOneByOne } from '../../io/terminal/guarded-send.ts';
import { InvalidKeyError } from '../../io/terminal/keys.ts';
import { createPtyHost, type PtyHost } from '../../io/terminal/pty/pty-host.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { screenText, waitForReading } from './mock-worker.ts';

describe('send guards', () => {
  let host: PtyHost;
  const dirs: Array<() => void> = [];
  afterEach(async () => {
    await host?.dispose();
    for (const c of dirs.splice(0)) c();
  });
  async function catPane() {
    host = createPtyHost({ submitDelayMs: 20 });
    const dir = makeTempDir('guard');
    dirs.push(dir.cleanup);
    return host.createPane({ name: 'cat', cwd: dir.path, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, argv: ['cat'] });
  }

  it('an unreadable screen fails open: the text is sent', async () => {
    const pane = await catPane();
    // An empty screen is unreadable (no row reaches 40 columns): the guard cannot tell, so it sends.
    await guardedSendText(host, pane.paneId, 'sent through an unreadable screen');
    await waitForReading(host, pane.paneId, (_r, s) => screenText(s).includes('sent through an unreadable screen'), 'the echoed text');
  });

  it('a failed read fails open: the send is attempted, not refused', async () => {
    host = createPtyHost();
    const err = await guardedSendText(host, 'pty-404', 'hello').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(PromptBoxNotEmptyError);
    expect(String(err)).toMatch(/no pty pane pty-404/);
  });

  it('every key is validated before the first is sent', async () => {
    const pane = await catPane();
    await expect(sendKeysOneByOne(host, pane.paneId, [{ char: 'a' }, { char: 'bc' }])).rejects.toBeInstanceOf(InvalidKeyError);
    // Proof by ordering: a later key arrives after anything sent before it.
    await host.sendKey(pane.paneId, { char: 'z' });
    const seen = await waitForReading(host, pane.paneId, (_r, s) => screenText(s).includes('z'), 'the probe key');
    expect(screenText(seen.screen)).not.toContain('a');
  });

  it('keys go one per call with the screen read back after each', async () => {
    const pane = await catPane();
    const reads = await sendKeysOneByOne(host, pane.paneId, [{ char: 'x' }, { char: 'y' }], { settleMs: 5_000 });
    expect(reads.map((r) => r.ok && screenText(r.screen).trim())).toEqual(['x', 'xy']);
  });
});
