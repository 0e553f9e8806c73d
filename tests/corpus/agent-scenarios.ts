/**
 * The scenarios the Gemini CLI, Qwen Code and OpenCode corpora script alike, written once: each is
 * the same steps against the fake model (a slow reply, a shell command that needs the person, a
 * question, a turn in a small pane, a quit), told apart only by how the agent is driven (its idle
 * wait and its submit) and the words its screens show. Each agent's scenario file makes these with
 * its driver and adds its own (its dialogs at start, its modes). The names are the fixtures'.
 */
import type { FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import type { CapturePane } from './pty-pane.ts';
import { contains, settle, type ExpectedReading } from './scenarios.ts';

type Accept = (s: string) => boolean;

/** One scenario of an agent's corpus: its setup (`Setup`, partly given), the fake it scripts and the run it is given (`run.worktree`). */
export interface AgentScenario<Setup, Fake, Run = unknown> {
  name: string;
  setup: Partial<Setup>;
  /** Drives the pane to the screen; returns the expected reading. Captures are taken right after. */
  drive(pane: CapturePane, fake: Fake, run: Run): Promise<ExpectedReading>;
  /** Runs only on these backends (default both). */
  backends?: readonly ('tmux' | 'pty')[];
}

export interface AgentDriver {
  /** The idle box is up and quiet (`what` names the moment), with `extra` true of the screen. */
  idle(pane: CapturePane, what: string, extra?: Accept): Promise<string>;
  /** Types `text` and submits it. */
  submit(pane: CapturePane, text: string): Promise<void>;
  /** How long a dialog may take to come up. */
  dialogWithinMs: number;
  /** A running turn's own hint (`esc to cancel`), and what it is called in a wait. */
  running: { hint: RegExp; what: string };
  /** The shell command's permission dialog is up. */
  permission: Accept;
  /** `text` stands in the box. */
  typed(screen: string, text: string): boolean;
  /** The words of the fake's reply to `say hello please`. */
  reply: RegExp;
}

/** A scenario any of the three agents' lists takes (its setup is the default one, or a pane size); `Fake`: the fake it scripts, if any. */
export type SharedScenario<Fake = unknown> = AgentScenario<{ cols: number; rows: number }, Fake>;

const IDLE: ExpectedReading = { state: 'idle', promptBox: '' };
const SMALL = { cols: 80, rows: 24 };

export function agentScenarios(d: AgentDriver) {
  const firstBox = (pane: CapturePane, small = false) => d.idle(pane, small ? 'first box in an 80×24 pane' : 'first box');
  const ask = async (pane: CapturePane, text: string, small = false) => {
    await firstBox(pane, small);
    await d.submit(pane, text);
  };
  /** `say hello please` from the first box, until the reply's words stand under an idle box. */
  const turn = async (pane: CapturePane, small = false) => {
    await ask(pane, 'say hello please', small);
    await d.idle(pane, small ? 'the finished turn in 80×24' : 'the finished turn', contains(d.reply));
  };
  const permission = async (pane: CapturePane) => {
    await ask(pane, 'MODE:bash make a file');
    await settle(pane, 'the shell approval', d.permission, d.dialogWithinMs);
  };
  /** `MODE:ask which db` from the first box, until the question's menu (`accept`) holds. */
  const question = async (pane: CapturePane, what: string, accept: Accept) => {
    await ask(pane, 'MODE:ask which db');
    await settle(pane, what, accept, d.dialogWithinMs);
  };
  /** Enter takes the dialog's preselected first choice; the tool's turn then finishes. */
  const enterUntilToolFinished = async (pane: CapturePane, what: string): Promise<ExpectedReading> => {
    await pane.keys('Enter');
    await d.idle(pane, what, contains(/The tool finished/));
    return IDLE;
  };
  const exit = (command: string, small: boolean): SharedScenario => ({
    name: small ? 'after-exit-80x24' : 'after-exit',
    setup: small ? SMALL : {},
    backends: ['tmux'],
    async drive(pane) {
      await ask(pane, command, small);
      await pane.waitDead(20_000);
      return { state: 'exited' };
    },
  });

  return {
    idle: { name: 'idle', setup: {}, drive: async (pane) => (await firstBox(pane), IDLE) } satisfies SharedScenario,
    /** The first box under `setup` (a mode or posture), `sign` on screen. */
    idleWith: <Setup>(name: string, setup: Setup, what: string, sign: RegExp, says?: string) => ({
      name,
      setup,
      async drive(pane: CapturePane): Promise<ExpectedReading> {
        await d.idle(pane, what, contains(sign));
        return { ...IDLE, ...(says ? { says } : {}) };
      },
    }),
    typedText: {
      name: 'typed-text',
      setup: {},
      async drive(pane) {
        await firstBox(pane);
        await pane.type('half typed');
        await pane.waitStable('typed text in the box', { quietMs: 800, accept: (s) => d.typed(s, 'half typed') });
        return { state: 'idle', promptBox: 'half typed' };
      },
    } satisfies SharedScenario,
    /** A shell command of `seconds` runs under `setup` (a posture that asks nothing), the running hint drawn. */
    workingShell: <Setup>(setup: Setup, seconds: number, says: string) => ({
      name: 'working-shell',
      setup,
      async drive(pane: CapturePane): Promise<ExpectedReading> {
        await ask(pane, `MODE:bash[[sleep ${seconds} && echo slept]]`);
        await pane.waitForScreen((s) => s.includes(`sleep ${seconds}`) && d.running.hint.test(s), 'the shell command running', 30_000);
        return { state: 'working', says };
      },
    }),
    working: {
      name: 'working',
      setup: {},
      async drive(pane) {
        await ask(pane, 'MODE:slow show the spinner');
        await pane.waitForScreen(contains(/streamed slowly/), 'the slow reply streaming', 30_000);
        await pane.waitForScreen(contains(d.running.hint), d.running.what, 30_000);
        return { state: 'working' };
      },
    } satisfies SharedScenario,
    permissionShell: { name: 'permission-shell', setup: {}, drive: async (pane) => (await permission(pane), { state: 'blocked', reason: 'permission' }) } satisfies SharedScenario,
    afterPermissionYes: {
      name: 'after-permission-yes',
      setup: {},
      backends: ['tmux'],
      async drive(pane) {
        await permission(pane);
        return enterUntilToolFinished(pane, 'the finished tool turn');
      },
    } satisfies SharedScenario,
    /** The question tool's menu (`what` names it in the wait). */
    question: (name: string, what: string, accept: Accept): SharedScenario => ({
      name, setup: {}, drive: async (pane) => (await question(pane, what, accept), { state: 'blocked', reason: 'question' }),
    }),
    questionAnswered: (name: string, what: string, accept: Accept): SharedScenario => ({
      name,
      setup: {},
      backends: ['tmux'],
      async drive(pane) {
        await question(pane, what, accept);
        return enterUntilToolFinished(pane, 'the answered question');
      },
    }),
    /** The fake Anthropic API refuses the turn with `message` (HTTP 400); the agent shows it (`shown`) and is idle again. */
    apiError: (refusal: { message: string; prompt: string; what: string; shown: RegExp }): SharedScenario<FakeAnthropic> => ({
      name: 'api-error',
      setup: {},
      async drive(pane, fake) {
        await firstBox(pane);
        fake.queue([{ kind: 'error', status: 400, errorType: 'invalid_request_error', message: refusal.message }]);
        await d.submit(pane, refusal.prompt);
        await d.idle(pane, refusal.what, contains(refusal.shown));
        return { ...IDLE, agentError: true };
      },
    }),
    /** A finished reply (in an 80×24 pane when `small`). */
    finishedTurn: (small: boolean): SharedScenario => ({
      name: small ? 'finished-turn-80x24' : 'finished-turn',
      setup: small ? SMALL : {},
      drive: async (pane) => (await turn(pane, small), IDLE),
    }),
    /** `command` from the first box (of an 80×24 pane when `small`), and the agent gone. */
    exit,
    /** The steps, for an agent's own scenarios. */
    steps: { turn, question },
  };
}
