/**
 * The folder-trust dialog shows at start unless ~/.claude.json marks the EXACT realpath of the
 * cwd trusted (`projects[<path>].hasTrustDialogAccepted === true`), as the real binary does.
 * Its default row is `No, exit`: Enter there exits 1; Down then Enter trusts.
 */
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { launchMock, readEvents, waitForBox, type MockLaunch, type MockRun, waitExitStatus } from './mock-pane.ts';

let run: MockRun | null = null;
afterEach(async () => {
  await run?.cleanup();
  run = null;
});

async function start(opts: MockLaunch): Promise<MockRun> {
  run = await launchMock(opts);
  return run;
}

const TRUST = '\u276F No, exit';

describe('folder trust follows ~/.claude.json like the real binary', () => {
  it('a HOME that trusts the exact realpath of the cwd starts at the input box', async () => {
    const { pane, eventLog } = await start({ trustPath: (cwd) => cwd });
    const screen = await waitForBox(pane);
    expect(screen).not.toContain('Accessing workspace:');
    expect(readEvents(eventLog).map((e) => e.event)).toEqual(['ready']);
  });

  it('trusting only the parent folder does not cover the cwd: the dialog shows', async () => {
    const { pane } = await start({ trustPath: (cwd) => dirname(cwd) });
    const screen = await pane.waitForScreen((s) => s.includes(TRUST), 'the trust dialog');
    expect(screen).toContain('Accessing workspace:');
  });

  it('with no ~/.claude.json the dialog shows; Down then Enter trusts and shows the box', async () => {
    const { pane, cwd } = await start({});
    const screen = await pane.waitForScreen((s) => s.includes(TRUST), 'the trust dialog');
    expect(screen).toContain(` ${cwd}`);
    await pane.keys('Down');
    await pane.waitForScreen((s) => s.includes('\u276F Yes, I trust this folder'), 'the caret on Yes');
    await pane.keys('Enter');
    await waitForBox(pane);
  });

  it('Enter on the default row `No, exit` ends the program with status 1', async () => {
    const { pane } = await start({});
    await pane.waitForScreen((s) => s.includes(TRUST), 'the trust dialog');
    await pane.keys('Enter');
    expect(await waitExitStatus(pane)).toBe(1);
  });

  it('--skip-trust starts at the box in an untrusted folder', async () => {
    const { pane } = await start({ args: ['--skip-trust'] });
    const screen = await waitForBox(pane);
    expect(screen).not.toContain('Accessing workspace:');
  });
});
