/**
 * The mock agent's screens, captured in tmux, classify the same as the real Claude Code 2.1.332
 * captures of the same state: same state, awaitingInput, blockedReason, promptBox and
 * promptBoxKind, from the SGR capture and from the plain one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { analyseScreen, parsePlain } from '../../io/screen/index.ts';
import type { TmuxPane } from '../harness/claude-tmux.ts';
import { waitFor } from '../helpers/temp.ts';
import { BOX, classifyAnsi, classifyPlain, expectUnchangedFor, finishedLines, fixture, launchMock, submit, waitForBox, type MockLaunch, type MockRun, waitExitStatus } from './mock-pane.ts';

const FAST = { KH_MOCK_TICK_MS: '250', KH_MOCK_REPLY_MS: '100', KH_MOCK_SLOW_MS: '4000' };
const SPINNER_WITH_COUNTER = /^\S \S+\u2026 \(\d+s \u00B7 \u2193 \d+ tokens\)$/m;
const SPINNER_WITHOUT_COUNTER = /^\S \S+\u2026$/m;

const stripSgr = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

let runs: MockRun[] = [];
afterEach(async () => {
  await Promise.all(runs.map((r) => r.cleanup()));
  runs = [];
});

async function start(opts: MockLaunch = {}): Promise<TmuxPane> {
  const run = await launchMock({ args: ['--skip-trust'], ...opts, env: { ...FAST, ...opts.env } });
  runs.push(run);
  return run.pane;
}

/** A started mock with its box drawn and `prompt` submitted; its pane. */
async function startWith(prompt: string, opts: MockLaunch = {}): Promise<TmuxPane> {
  const pane = await start(opts);
  await waitForBox(pane);
  await submit(pane, prompt);
  return pane;
}

/** Captures (SGR and plain) until both satisfy `accept`, then both must classify like `name`. */
async function expectLike(pane: TmuxPane, name: string, accept: (screen: string) => boolean, what: string): Promise<string> {
  let last = '';
  const shot = await waitFor(
    async () => {
      const ansi = await pane.capture({ ansi: true });
      const plain = await pane.capture();
      last = plain;
      return accept(stripSgr(ansi)) && accept(plain) ? { ansi, plain } : false;
    },
    { what: `${what} (for ${name})`, timeoutMs: 20_000, intervalMs: 50 },
  ).catch((err: Error) => {
    throw new Error(`${err.message}\n--- last screen ---\n${last}`);
  });
  expect(classifyAnsi(shot.ansi), `SGR capture vs ${name}.ansi.txt\n${shot.plain}`).toEqual(classifyAnsi(fixture(`${name}.ansi.txt`)));
  expect(classifyPlain(shot.plain), `plain capture vs ${name}.txt\n${shot.plain}`).toEqual(classifyPlain(fixture(`${name}.txt`)));
  return shot.plain;
}

const hasBox = (text = '') => (s: string) => s.split('\n').some((row) => row.trimEnd() === `${BOX}${text}`.trimEnd());
const finishedCount = (n: number) => (s: string) => finishedLines(s).length === n && hasBox()(s);

describe("the mock agent's screens, captured in tmux, classify the same as the real captures of the same state", () => {
  it('fullscreen: idle box, typed text, finished turn, working spinner, finished slow turn', async () => {
    const pane = await start();
    await expectLike(pane, '2.1.332/04-idle-box', hasBox(), 'the empty box');
    await pane.type('half typed');
    await expectLike(pane, '2.1.332/04d-box-with-typed-text', hasBox('half typed'), 'typed text in the box');
    await pane.keys('C-u');
    await expectLike(pane, 'observed/2.1.332/08c-turn-finished-after-ctrl-u', (s) => hasBox()(s) && s.includes('ctrl+y to paste deleted text'), 'the box emptied by ctrl+u');
    await submit(pane, 'Say hello please');
    await expectLike(pane, '2.1.332/08a-turn-finished-plain', finishedCount(1), 'the first finished turn');
    await submit(pane, 'MODE:slow show the spinner');
    await expectLike(pane, '2.1.332/05-working-spinner-a', (s) => SPINNER_WITH_COUNTER.test(s), 'the spinner with its counter');
    await expectLike(pane, '2.1.332/08-turn-finished', finishedCount(2), 'the slow turn finished');
  });

  it('fullscreen: a stall keeps ticking with the same fingerprint; Esc before any reply puts the prompt back', async () => {
    const pane = await startWith('MODE:hang stall the stream');
    const first = await expectLike(pane, '2.1.332/05d-working-stalled', (s) => SPINNER_WITH_COUNTER.test(s), 'the stalled spinner');
    const seconds = (s: string) => /\((\d+)s/.exec(s)?.[1];
    const later = await pane.waitForScreen((s) => SPINNER_WITH_COUNTER.test(s) && seconds(s) !== seconds(first), 'the stall timer to tick');
    expect(analyseScreen(parsePlain(later)).fingerprint).toBe(analyseScreen(parsePlain(first)).fingerprint);
    // The pane title works like the real one: a half circle while working, ✳ when idle.
    expect(await pane.format('#{pane_title}')).toMatch(/^[◐-◓] Claude Code$/);
    await pane.keys('Escape');
    await expectLike(pane, '2.1.332/11-interrupted', hasBox('MODE:hang stall the stream'), 'the prompt back in the box');
    expect(await pane.format('#{pane_title}')).toBe('✳ Claude Code');
  });

  it('fullscreen: MODE:silent draws the turn start once and then nothing, until Escape', async () => {
    const pane = await startWith('MODE:silent go quiet');
    await expectLike(pane, '2.1.332/05-working-spinner-start', (s) => SPINNER_WITHOUT_COUNTER.test(s), 'the spinner without a counter');
    // Twelve ticks of 250 ms: a live spinner would have redrawn its glyph and counter many times.
    await expectUnchangedFor(pane, 3000);
    await pane.type('ignored');
    await pane.keys('Escape');
    await waitForBox(pane, 'MODE:silent go quiet');
  });

  it('fullscreen: permission dialog, after Yes, and after Esc on the dialog', async () => {
    const pane = await startWith('MODE:bash make a file');
    await expectLike(pane, '2.1.332/06-permission-bash', (s) => s.includes('Do you want to proceed?'), 'the permission dialog');
    await pane.keys('Enter');
    const after = await expectLike(pane, '2.1.332/06b-after-permission-yes', finishedCount(1), 'the turn after Yes');
    expect(after).toContain('  Ran 1 shell command');
    await submit(pane, 'MODE:bash make another');
    await pane.waitForScreen((s) => s.includes('Do you want to proceed?'), 'the second permission dialog');
    await pane.keys('Escape');
    const cancelled = await expectLike(pane, '2.1.332/11b-interrupted-mid-stream', (s) => s.includes('Interrupted \u00B7 What should Claude do instead?') && hasBox()(s), 'the interrupted turn');
    expect(cancelled).toContain('Did not run 1 call');
  });

  it('fullscreen: question menu, after the answer, and an API error', async () => {
    const pane = await startWith('MODE:ask which db');
    await expectLike(pane, '2.1.332/07-ask-user-question', (s) => s.includes('Enter to select'), 'the question menu');
    await pane.keys('Down');
    await pane.waitForScreen((s) => s.includes('\u276F 2. Postgres'), 'the caret on Postgres');
    await pane.keys('Enter');
    const answered = await expectLike(pane, '2.1.332/07b-after-answer', finishedCount(1), 'the turn after the answer');
    expect(answered).toContain('\u2192 Postgres');
    await submit(pane, 'MODE:error fail please');
    await expectLike(pane, '2.1.332/12-api-error-400', (s) => s.includes('API Error: 400') && hasBox()(s), 'the API error');
  });

  it('fullscreen: prompt suggestion, slash menu, and the screen after /exit', async () => {
    const pane = await startWith('Say hello please', { env: { CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION: '1' } });
    await pane.waitForScreen(finishedCount(1), 'the first turn to finish');
    await submit(pane, 'Say hello again');
    await expectLike(pane, '2.1.332/09-prompt-suggestion', hasBox('run the tests'), 'the suggestion in the box');
    await pane.type('/exit');
    await expectLike(pane, '2.1.332/09b-slash-menu-exit', (s) => s.includes('Exit the CLI') && hasBox('/exit')(s), 'the slash menu');
    await pane.keys('Enter');
    expect(await waitExitStatus(pane)).toBe(0);
    await expectLike(pane, '2.1.332/10-after-exit', (s) => s.includes('Resume this session with:'), 'the resume hint');
  });

  it('fullscreen: the folder-trust dialog', async () => {
    const pane = await start({ args: [] });
    await expectLike(pane, '2.1.332/03-trust-dialog', (s) => s.includes('\u276F No, exit'), 'the trust dialog');
  });

  it('classic: idle, working, permission, finished, ctrl+u hint, after exit', async () => {
    const pane = await start({ args: ['--skip-trust', '--classic'] });
    await expectLike(pane, '2.1.332-classic/04-idle-box', hasBox(), 'the classic box');
    await submit(pane, 'MODE:slow spin');
    await expectLike(pane, '2.1.332-classic/05-working-spinner-a', (s) => SPINNER_WITH_COUNTER.test(s), 'the classic spinner');
    await expectLike(pane, '2.1.332-classic/08-turn-finished', finishedCount(1), 'the classic finished turn');
    await submit(pane, 'MODE:bash make a file');
    await expectLike(pane, 'observed/2.1.332/06-permission-bash-classic', (s) => s.includes('Do you want to proceed?'), 'the classic permission dialog');
    await pane.keys('Enter');
    await pane.waitForScreen(finishedCount(2), 'the classic bash turn to finish');
    await pane.type('drop me');
    await waitForBox(pane, 'drop me');
    await pane.keys('C-u');
    await expectLike(pane, 'observed/2.1.332/08c-turn-finished-after-ctrl-u-classic', (s) => s.includes('ctrl+y to paste deleted text'), 'the ctrl+y hint');
    await pane.type('/exit');
    await waitForBox(pane, '/exit');
    await pane.keys('Enter');
    expect(await waitExitStatus(pane)).toBe(0);
    await expectLike(pane, '2.1.332-classic/10-after-exit', (s) => s.includes('Resume this session with:'), 'the classic resume hint');
  });
});
