/**
 * The mock's Stop hook (the bench's witness figures, KH_MOCK_STOP_HOOKS=1): the `Stop` command of
 * `.claude/settings.local.json` runs at a turn's end the way Claude Code 2.1.332 runs it — through
 * the shell, the payload on stdin, the spinner up (`running Stop hook`) until it exits, the
 * finished turn drawn only after. Without the variable no hook runs, whatever the settings say.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { shellCommand } from '../../io/workspace/kit-settings.ts';
import { analyseScreen, parsePlain } from '../../io/screen/index.ts';
import { finishedLines, launchMock, readEvents, submit, waitForBox, type MockRun } from './mock-pane.ts';

let run: MockRun | null = null;
afterEach(async () => {
  await run?.cleanup();
  run = null;
});

/** A Stop hook that writes its stdin to `out`, then holds for `holdMs` before it exits. */
function writeStopHook(cwd: string, out: string, holdMs: number): void {
  const script = `let b='';process.stdin.on('data',(c)=>b+=c).on('end',()=>{require('node:fs').writeFileSync(${JSON.stringify(out)},b);setTimeout(()=>{},${holdMs})})`;
  mkdirSync(join(cwd, '.claude'), { recursive: true });
  const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: shellCommand([process.execPath, '-e', script]), timeout: 10 }] }] } };
  writeFileSync(join(cwd, '.claude', 'settings.local.json'), JSON.stringify(settings));
}

async function start(stopHooks: boolean): Promise<MockRun> {
  run = await launchMock({ args: ['--skip-trust'], env: { KH_MOCK_REPLY_MS: '50', KH_MOCK_TICK_MS: '200', ...(stopHooks ? { KH_MOCK_STOP_HOOKS: '1' } : {}) } });
  return run;
}

/** A mock (Stop hooks run: `runHooks`) whose settings hold a Stop hook taking `ms`, given one turn; `out` is where the hook writes its payload. */
async function turnWithAStopHook(runHooks: boolean, ms: number) {
  const r = await start(runHooks);
  const out = join(r.dir, 'stop-payload.json');
  writeStopHook(r.cwd, out, ms);
  await waitForBox(r.pane);
  await submit(r.pane, 'say hello');
  return { r, out };
}

describe('the mock runs its Stop hook only when asked, spinner up until it exits', () => {
  it('KH_MOCK_STOP_HOOKS=1: the hook gets the Stop payload; the turn reads working while it runs and finishes after', async () => {
    const { r, out } = await turnWithAStopHook(true, 700);
    const during = await r.pane.waitForScreen((s) => s.includes('running Stop hook'), 'the spinner while the Stop hook runs');
    expect(analyseScreen(parsePlain(during, { cols: 120, rows: 40 }), 'claude').state).toBe('working');
    await r.pane.waitForScreen((s) => finishedLines(s).length === 1 && s.includes('\u276F\u00A0'), 'the finished turn after the hook');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ hook_event_name: 'Stop' });
    const events = readEvents(r.eventLog);
    const began = events.find((e) => e.event === 'stop-hook-started');
    const finished = events.find((e) => e.event === 'turn-finished');
    expect(began && finished, JSON.stringify(events.map((e) => e.event))).toBeTruthy();
    // The finished turn is drawn only once the hook has exited (it held 700 ms).
    expect(finished!.t - began!.t).toBeGreaterThanOrEqual(600);
  });

  it('without KH_MOCK_STOP_HOOKS no hook runs, whatever the settings hold', async () => {
    const { r, out } = await turnWithAStopHook(false, 0);
    await r.pane.waitForScreen((s) => finishedLines(s).length === 1 && s.includes('\u276F\u00A0'), 'the finished turn');
    expect(existsSync(out)).toBe(false);
    expect(readEvents(r.eventLog).some((e) => e.event === 'stop-hook-started')).toBe(false);
  });
});
