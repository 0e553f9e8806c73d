/**
 * Turn behaviour and input through a real tmux pane: MODE:report writes its file, a 100 KB
 * bracketed paste arrives whole, a resize redraws at the new size, a scenario file scripts
 * replies and menus, and the event log records each significant draw in order.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { finishedLines, launchMock, launchMockWithScenario, readEvents, submit, waitForBox, type MockLaunch, type MockRun, waitExitStatus } from './mock-pane.ts';

let run: MockRun | null = null;
afterEach(async () => {
  await run?.cleanup();
  run = null;
});

async function start(opts: MockLaunch = {}): Promise<MockRun> {
  run = await launchMock({ args: ['--skip-trust'], ...opts, env: { KH_MOCK_REPLY_MS: '50', KH_MOCK_TICK_MS: '200', ...opts.env } });
  return run;
}

const finished = (n: number) => (s: string) => finishedLines(s).length === n && s.includes('\u276F\u00A0');

describe('turns and input of the mock agent', () => {
  it('MODE:report <path> writes a markdown report there, shows the Write tool line and finishes the turn', async () => {
    const { pane, cwd } = await start();
    await waitForBox(pane);
    await submit(pane, 'MODE:report out/report.md summarise the work');
    const screen = await pane.waitForScreen(finished(1), 'the report turn to finish');
    expect(screen).toContain('\u25CF Write(out/report.md)');
    const report = readFileSync(join(cwd, 'out', 'report.md'), 'utf8');
    expect(report).toMatch(/^# Report\n/);
    expect(report).toContain('MODE:report out/report.md summarise the work');
  });

  it('a 100 KB bracketed paste arrives whole: one collapsed chunk in the box, every byte in the prompt', async () => {
    const { pane, dir, eventLog } = await start();
    await waitForBox(pane);
    const lines: string[] = [];
    for (let i = 0; lines.join('\n').length < 100_000; i++) lines.push(`line ${i} ${'abcdefghij'.repeat(1 + (i % 7))}`);
    const text = lines.join('\n').slice(0, 100_000);
    const file = join(dir, 'paste.txt');
    writeFileSync(file, text);
    await execa('tmux', ['-S', pane.socket, 'load-buffer', '-b', 'big', file]);
    // -p: bracketed paste, as the mock enabled ?2004h; tmux turns LF into CR, as a terminal does.
    await execa('tmux', ['-S', pane.socket, 'paste-buffer', '-p', '-b', 'big', '-t', 'claude:0.0']);
    const newlines = (text.match(/\n/g) ?? []).length;
    await waitForBox(pane, `[Pasted text #1 +${newlines} lines]`);
    await pane.keys('Enter');
    const screen = await pane.waitForScreen(finished(1), 'the paste turn to finish');
    expect(screen).toContain('I read your message (100000 characters).');
    const started = readEvents(eventLog).find((e) => e.event === 'turn-started');
    expect(started?.promptSha256).toBe(createHash('sha256').update(text).digest('hex'));
  });

  it('a resize redraws the whole frame at the new size', async () => {
    const { pane } = await start();
    await waitForBox(pane);
    await execa('tmux', ['-S', pane.socket, 'resize-window', '-t', 'claude', '-x', '80', '-y', '24']);
    const small = await pane.waitForScreen((s) => s.split('\n').includes('\u2500'.repeat(80)), 'an 80-column rule');
    const rows = small.replace(/\n$/, '').split('\n');
    expect(rows).toHaveLength(24);
    expect(rows[21]).toBe('\u276F\u00A0');
    expect(rows[23]).toBe('  \u23F8 manual mode on \u00B7 ? for shortcuts');
    await execa('tmux', ['-S', pane.socket, 'resize-window', '-t', 'claude', '-x', '120', '-y', '40']);
    await pane.waitForScreen((s) => s.split('\n').includes('\u2500'.repeat(120)), 'a 120-column rule again');
  });

  it('a scenario file scripts the reply, the spinner seconds and a question menu of its own', async () => {
    run = await launchMockWithScenario(
      {
        turns: [
          { match: 'deploy', steps: [{ kind: 'ask', header: 'Target', question: 'Where should it go?', options: [{ label: 'Staging', description: 'Safe' }, { label: 'Production', description: 'Live' }] }, { kind: 'reply', text: 'Deploying to {answer}.' }] },
          { steps: [{ kind: 'think', seconds: 3 }, { kind: 'reply', text: 'Scripted first reply.' }] },
        ],
      },
      { args: ['--skip-trust'], env: { KH_MOCK_TICK_MS: '100' } },
    );
    const { pane } = run;
    await waitForBox(pane);
    await submit(pane, 'anything at all');
    const first = await pane.waitForScreen(finished(1), 'the scripted first turn');
    expect(first).toContain('\u25CF Scripted first reply.');
    // The scripted think is 3 mock seconds; the line shows the turn's elapsed mock time (from the
    // clock), so a starved event loop can only make it longer, never shorter.
    const shown = / for (\d+)s /.exec(finishedLines(first)[0] ?? '');
    expect(shown, finishedLines(first)[0]).not.toBeNull();
    expect(Number(shown![1])).toBeGreaterThanOrEqual(3);
    await submit(pane, 'please deploy');
    const menu = await pane.waitForScreen((s) => s.includes('Where should it go?'), 'the scripted menu');
    expect(menu).toContain('\n \u2610 Target\n');
    expect(menu).toContain('  3. Type something.');
    await pane.keys('2');
    const done = await pane.waitForScreen(finished(2), 'the deploy turn to finish');
    expect(done).toContain('\u2192 Production');
    expect(done).toContain('\u25CF Deploying to Production.');
  });

  it('the event log has one line per significant draw, in order, timestamped before the frame', async () => {
    const { pane, eventLog } = await start();
    await waitForBox(pane);
    await submit(pane, 'MODE:bash make a file');
    await pane.waitForScreen((s) => s.includes('Do you want to proceed?'), 'the permission dialog');
    // Written before the frame is flushed: by the time the dialog is visible its line is there.
    expect(readEvents(eventLog).map((e) => e.event)).toEqual(['ready', 'turn-started', 'permission-drawn']);
    await pane.keys('1');
    await pane.waitForScreen(finished(1), 'the bash turn to finish');
    await submit(pane, 'MODE:ask pick');
    await pane.waitForScreen((s) => s.includes('Enter to select'), 'the question menu');
    await pane.keys('Escape');
    await pane.waitForScreen((s) => s.includes('Interrupted') && s.includes('\u276F\u00A0'), 'the cancelled question');
    await submit(pane, '/exit');
    await waitExitStatus(pane);
    const events = readEvents(eventLog);
    expect(events.map((e) => e.event)).toEqual(['ready', 'turn-started', 'permission-drawn', 'turn-finished', 'turn-started', 'menu-drawn', 'turn-interrupted', 'exiting']);
    const times = events.map((e) => e.t);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(Math.abs((times[0] as number) - Date.now())).toBeLessThan(60_000);
    expect(new Set(events.map((e) => e.pid)).size).toBe(1);
    expect(existsSync(eventLog)).toBe(true);
  });
});
