/**
 * Teardown sees what is in the box, including what a screen cannot show: spaces in the input box
 * read as an empty box, and /exit typed after them ("  /exit") is a prompt, not the command, so
 * `hand stop` timed out after 30 s. The app cursor shows the blanks: they read as typed text, which teardown clears (ctrl-u) before /exit.
 */
import { describe, expect, it } from 'vitest';
import { dispatchYoloMock, useCliWorld } from '../helpers/cli-world.ts';

const makeWorld = useCliWorld();

describe('stop clears blanks typed into the box', () => {
  it('a box holding only spaces still ends with /exit: stopped, exit 0', async () => {
    const w = await makeWorld('cli-stop-blanks');
    await dispatchYoloMock(w, 'w1', 'Say hello.', 'b');
    const settled = await w.hand(['wait', 'w1', '--until', 'settled', '--timeout', '30s', '--json']);
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    for (let i = 0; i < 3; i++) expect((await w.hand(['keys', 'w1', 'space'])).code).toBe(0);
    // the cursor shows the blanks: the box holds typed blanks
    expect((await w.hand(['status', 'w1', '--json'])).json[0]).toMatchObject({ promptBox: '   ' });
    const stop = await w.hand(['stop', 'w1', '--timeout', '10s', '--json']);
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.json).toMatchObject({ stage: 'stopped', exitCode: 0, paneReusable: true });
  }, 90_000);
});
