/**
 * How the mock agent ends: /exit and a double ctrl+c exit 0 with the resume hint, MODE:crash
 * exits 3 at once, a scenario's exit step exits with its code, a bad scenario is a usage error.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { makeTempDir } from '../helpers/temp.ts';
import { launchMock, launchMockWithScenario, MOCK_BIN, readEvents, submit, waitForBox, type MockLaunch, type MockRun, waitExitStatus } from './mock-pane.ts';

let run: MockRun | null = null;
afterEach(async () => {
  await run?.cleanup();
  run = null;
});

async function start(opts: MockLaunch = {}): Promise<MockRun> {
  run = await launchMock({ args: ['--skip-trust'], ...opts, env: { KH_MOCK_REPLY_MS: '50', ...opts.env } });
  return run;
}

describe('exit status of the mock agent', () => {
  it('MODE:crash exits with status 3 and logs the exit', async () => {
    const { pane, eventLog } = await start();
    await waitForBox(pane);
    await submit(pane, 'MODE:crash now');
    expect(await waitExitStatus(pane)).toBe(3);
    const events = readEvents(eventLog);
    expect(events.at(-1)).toMatchObject({ event: 'exiting', code: 3 });
  });

  it('/exit leaves the alternate screen, prints the resume hint and exits 0', async () => {
    const { pane } = await start();
    await waitForBox(pane);
    await submit(pane, '/exit');
    expect(await waitExitStatus(pane)).toBe(0);
    expect(await pane.format('#{alternate_on}')).toBe('0');
    const screen = await pane.capture();
    expect(screen).toMatch(/^Resume this session with:\nclaude --resume [0-9a-f-]{36}\n/);
  });

  it('ctrl+c twice exits 0; once only arms it', async () => {
    const { pane } = await start();
    await waitForBox(pane);
    await pane.keys('C-c');
    await pane.waitForScreen((s) => s.includes('Press Ctrl-C again to exit'), 'the ctrl+c hint');
    expect((await pane.status()).dead).toBe(false);
    await pane.keys('C-c');
    expect(await waitExitStatus(pane)).toBe(0);
  });

  it("a scenario's exit step ends the process with its code", async () => {
    const scenario = { turns: [{ match: 'finish', steps: [{ kind: 'think', ms: 50 }, { kind: 'exit', code: 5 }] }] };
    run = await launchMockWithScenario(scenario, { args: ['--skip-trust'] });
    const { pane } = run;
    await waitForBox(pane);
    await submit(pane, 'please finish');
    expect(await waitExitStatus(pane)).toBe(5);
  });

  it('a malformed scenario file is a usage error: exit 2 with a one-line reason, before the terminal is touched', async () => {
    const tmp = makeTempDir('mock-scenario');
    try {
      const path = join(tmp.path, 'scenario.json');
      writeFileSync(path, JSON.stringify({ turns: [{ steps: [{ kind: 'dance' }] }] }));
      const r = await execa(process.execPath, [MOCK_BIN, '--scenario', path], { reject: false, input: '' });
      expect(r.exitCode).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([`mock-agent: scenario ${path}: turn 1 step 1: unknown step kind "dance"`]);
      expect(r.stdout).toBe('');
    } finally {
      tmp.cleanup();
    }
  });
});
