/**
 * The scripted scenarios of the capture corpus. Each drives a fresh Claude Code session to one
 * screen, proves it got there with a version-agnostic witness (words the scenario itself caused,
 * never our own reader), and names the reading that screen must get. A witness that never holds
 * fails the scenario: no fixture is written for a screen we did not reach.
 */
import type { FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import type { CapturePane } from './pty-pane.ts';

export interface ExpectedReading {
  state: 'idle' | 'working' | 'blocked' | 'exited';
  /** Text in the live box when idle ('' = empty); absent = not checked. */
  promptBox?: string;
  /** What a person is asked (informational: wording differs between versions). */
  reason?: string;
  /** The turn ended in an API error or a usage limit (the reading's agentError is set); absent = not checked. */
  agentError?: boolean;
  /** What a person would call this screen, in words (informational). */
  says?: string;
  /**
   * The agent's own word that the turn ended (Codex's notify) had come when this screen was
   * captured: what the worker's witness would have (actors/witness.ts). A screen the reader
   * cannot tell alone is read with it, as a worker's is.
   */
  turnEndWord?: boolean;
  /** Idle, but the agent has not finished starting (the reading's startingUp is set); absent = not checked. */
  startingUp?: boolean;
}

/** A situation a release cannot be brought to against the fake API: the scenario says so instead of faking it. */
export class ScenarioSkipped extends Error {}

export interface SessionSetup {
  trusted: boolean;
  cols: number;
  rows: number;
  /** Extra argv after the binary. */
  args: (ctx: { mcpConfig: string }) => string[];
  /** Extra environment for the session (e.g. CLAUDE_CODE_MAX_RETRIES). */
  env: Record<string, string>;
  /** Leave the first-run onboarding undone (no hasCompletedOnboarding, no theme). */
  onboarding: boolean;
}

export interface Scenario {
  name: string;
  setup: Partial<SessionSetup>;
  /** Drives the pane to the screen; returns the expected reading. Captures are taken right after. */
  drive(pane: CapturePane, fake: FakeAnthropic): Promise<ExpectedReading>;
  /** Runs only on these backends (default both). */
  backends?: readonly ('tmux' | 'pty')[];
}

export const INTERRUPT = /esc to interrupt/i;
/** Some row is a bare prompt glyph (empty box) or a glyph with text, on a readable line. */
// 1.x draws the box inside a rounded frame with an NBSP after the `│` (`│\u00a0>\u00a0Try …`).
const PROMPT_ROW = /^[ \u00a0│|]*[❯>][\u00a0 ]?/m;
const rows = (s: string) => s.split('\n').map((r) => r.replace(/[\s\u00a0]+$/u, ''));

/** The idle box is up: a prompt row, no running turn, and the screen is quiet for a while. */
export async function waitIdle(pane: CapturePane, what: string, extra: (s: string) => boolean = () => true): Promise<string> {
  return pane.waitStable(`idle: ${what}`, {
    quietMs: 1_200,
    timeoutMs: 40_000,
    accept: (s) => PROMPT_ROW.test(s) && !INTERRUPT.test(s) && !/trust|Do you want/i.test(s) && extra(s),
  });
}

export async function submit(pane: CapturePane, text: string): Promise<void> {
  // The text has left the box row (prompt glyph + NBSP).
  const inBox = (s: string) => {
    const r = rows(s);
    return r.some((row, i) => i > 0 && /^[ \u00a0│]*[❯>][\u00a0 ]/.test(row) && row.replace(/[\s│]+$/u, '').endsWith(text) && /^\s*[─╭]/.test(r[i - 1]!));
  };
  await typeAndSubmit(pane, text, (s) => s.includes(text.slice(0, 20)), (s) => !inBox(s));
}

/**
 * Types `text`, waits until it `shows`, then presses Enter until it has `left` the box: the app
 * draws before it takes Enter, and an Enter can still be dropped while it repaints (herdr #1878),
 * so it is pressed again, at most three times. Every agent's corpus submits this way.
 */
export async function typeAndSubmit(pane: CapturePane, text: string, shows: (s: string) => boolean, left: (s: string) => boolean, leftWithinMs = 2_500): Promise<void> {
  await pane.type(text);
  await pane.waitForScreen(shows, `the typed text ${JSON.stringify(text)} in the box`);
  await new Promise((r) => setTimeout(r, 300));
  for (let i = 0; i < 3; i++) {
    await pane.keys('Enter');
    try {
      await pane.waitForScreen(left, 'the submitted text to leave the box', leftWithinMs);
      return;
    } catch {
      /* pressed again below */
    }
  }
  throw new Error(`Enter did not submit ${JSON.stringify(text)}`);
}

export const contains = (re: RegExp) => (s: string) => re.test(s);

/**
 * Dialogs animate (2.1.332 repaints its permission dialog continuously), so a quiet screen is
 * never seen: wait for the witness, give the dialog a second to finish drawing, check again.
 */
export async function settle(pane: CapturePane, what: string, accept: (s: string) => boolean, withinMs = 40_000): Promise<void> {
  await pane.waitForScreen(accept, what, withinMs);
  await new Promise((r) => setTimeout(r, 1_000));
  await pane.waitForScreen(accept, `${what}, still up a second later`, 5_000);
}

/**
 * From the first box, a slow turn (`prompt`: MODE:slow …) sent and running: the spinner line with
 * its elapsed timer (2.1.12 draws `(ctrl+c to interrupt)` instead of a timer).
 */
async function slowTurnRunning(pane: CapturePane, prompt: string): Promise<void> {
  await waitIdle(pane, 'first box');
  await submit(pane, prompt);
  await pane.waitForScreen(contains(/…\s*\((?:\d+s|ctrl\+c to interrupt|esc to interrupt)/), 'the spinner with its status', 30_000);
}

/** Sends /exit from the first box (`what`: which box) and waits for Claude Code to be gone: the screen it leaves reads exited. */
function exitFromFirstBox(what: string): Scenario['drive'] {
  return async (pane) => {
    await waitIdle(pane, what);
    await submit(pane, '/exit');
    await pane.waitDead(20_000);
    return { state: 'exited' };
  };
}

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'trust-dialog',
    setup: { trusted: false },
    async drive(pane) {
      await pane.waitStable('the folder-trust dialog', { quietMs: 1_000, timeoutMs: 40_000, accept: contains(/trust/i) });
      return { state: 'blocked', reason: 'folder-trust' };
    },
  },
  {
    name: 'idle',
    setup: {},
    async drive(pane) {
      await waitIdle(pane, 'first box');
      return { state: 'idle', promptBox: '' };
    },
  },
  {
    name: 'typed-text',
    setup: {},
    async drive(pane) {
      await waitIdle(pane, 'first box');
      await pane.type('half typed');
      await pane.waitStable('typed text in the box', { quietMs: 800, accept: (s) => rows(s).some((r) => /[❯>][\u00a0 ]half typed[\s│]*$/u.test(r)) });
      return { state: 'idle', promptBox: 'half typed' };
    },
  },
  {
    name: 'working',
    setup: {},
    async drive(pane) {
      await slowTurnRunning(pane, 'MODE:slow show the spinner');
      return { state: 'working' };
    },
  },
  {
    name: 'permission-bash',
    setup: {},
    async drive(pane) {
      await waitIdle(pane, 'first box');
      await submit(pane, 'MODE:bash make a file');
      await settle(pane, 'the Bash permission dialog', contains(/Do you want to proceed\?/));
      return { state: 'blocked', reason: 'permission' };
    },
  },
  {
    name: 'after-permission-yes',
    setup: {},
    backends: ['tmux'],
    async drive(pane) {
      await waitIdle(pane, 'first box');
      await submit(pane, 'MODE:bash make a file');
      await settle(pane, 'the Bash permission dialog', contains(/Do you want to proceed\?/));
      await pane.keys('Enter'); // option 1 (Yes) is preselected in every version seen
      await waitIdle(pane, 'the finished tool turn', contains(/The tool finished/));
      return { state: 'idle', promptBox: '' };
    },
  },
  {
    name: 'ask-user-question',
    setup: {},
    async drive(pane) {
      await waitIdle(pane, 'first box');
      await submit(pane, 'MODE:ask which db');
      await settle(pane, 'the AskUserQuestion menu', contains(/SQLite/));
      return { state: 'blocked', reason: 'question' };
    },
  },
  {
    name: 'ask-multi-select',
    setup: {},
    backends: ['tmux'],
    async drive(pane, fake) {
      await waitIdle(pane, 'first box');
      fake.queue([
        {
          kind: 'tool_use', name: 'AskUserQuestion', text: 'I have questions.',
          input: {
            questions: [
              { question: 'Which checks should run?', header: 'Checks', multiSelect: true, options: [{ label: 'Lint', description: 'Static checks' }, { label: 'Tests', description: 'The unit suite' }] },
              { question: 'Which tone?', header: 'Tone', multiSelect: false, options: [{ label: 'Terse', description: 'Short' }, { label: 'Warm', description: 'Friendly' }] },
            ],
          },
        },
      ]);
      await submit(pane, 'ask me two things');
      await settle(pane, 'the multi-select question', contains(/Which checks should run\?/));
      return { state: 'blocked', reason: 'question' };
    },
  },
  {
    name: 'mcp-permission',
    setup: { args: ({ mcpConfig }) => ['--mcp-config', mcpConfig] },
    backends: ['tmux'],
    async drive(pane, fake) {
      await waitIdle(pane, 'first box');
      fake.queue([{ kind: 'tool_use', name: 'mcp__kh__ping', text: 'I will ping.', input: { note: 'hello' } }]);
      await submit(pane, 'ping the kh server');
      await settle(pane, 'the MCP tool permission dialog', contains(/ping/));
      await settle(pane, 'the MCP tool permission dialog', contains(/(Do you want|wants to|Allow)/));
      return { state: 'blocked', reason: 'permission' };
    },
  },
  {
    name: 'plan-approval',
    setup: { args: () => ['--permission-mode', 'plan'] },
    async drive(pane, fake) {
      await waitIdle(pane, 'first box');
      fake.queue([{ kind: 'tool_use', name: 'ExitPlanMode', text: 'Here is the plan.', input: { plan: '# Plan\n\n1. Add the parser.\n2. Test it.' } }]);
      await submit(pane, 'plan the parser');
      await settle(pane, 'the plan approval dialog', contains(/Would you like to proceed\?|ready to code|Exit plan mode\?/i));
      return { state: 'blocked', reason: 'permission' };
    },
  },
  {
    name: 'interrupted',
    setup: {},
    async drive(pane) {
      await slowTurnRunning(pane, 'MODE:slow interrupt me');
      await new Promise((r) => setTimeout(r, 1_500));
      await pane.keys('Escape');
      // Esc before any reply text puts the prompt back into the box (claude-code.md §6.7)
      await waitIdle(pane, 'the interrupted turn', contains(/Interrupted|❯\u00a0MODE:slow/i));
      return { state: 'idle' };
    },
  },
  {
    name: 'after-exit',
    setup: {},
    backends: ['tmux'],
    drive: exitFromFirstBox('first box'),
  },
  {
    // issue 21: the turn-end line and the box at a small terminal (the reader's structural rules)
    name: 'finished-turn-80x24',
    setup: { cols: 80, rows: 24 },
    async drive(pane) {
      await waitIdle(pane, 'first box in an 80×24 pane');
      await submit(pane, 'say hello please');
      // a suggestion may fill the box after the turn (no hooks here): the box text is not checked
      await waitIdle(pane, 'the finished turn in 80×24', contains(/^[●⏺] \S/m));
      return { state: 'idle' };
    },
  },
  {
    name: 'after-exit-200x50',
    setup: { cols: 200, rows: 50 },
    backends: ['tmux'],
    drive: exitFromFirstBox('first box in a 200×50 pane'),
  },
  {
    name: 'narrow-pane',
    setup: { cols: 60 },
    backends: ['tmux'],
    async drive(pane) {
      await waitIdle(pane, 'first box in a 60-column pane');
      return { state: 'idle', promptBox: '' };
    },
  },
];
