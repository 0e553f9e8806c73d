/**
 * The scripted Codex CLI scenarios of the capture corpus. Each drives a fresh session to one
 * screen, proves it got there by words the scenario itself caused (never by our reader), and
 * names the reading that screen must get. A finished turn is proven by Codex's own word: its
 * `notify` command (agent-turn-complete), recorded by the capture run, never by a status line
 * that only some releases draw (0.140.0 and older leave no `Worked for …` under a quick turn).
 */
import type { PermissionPosture } from '../../../contract/vocabulary.ts';
import type { FakeCodexApi } from '../../../io/fake-model/codex.ts';
import type { CapturePane } from '../pty-pane.ts';
import { ScenarioSkipped, type ExpectedReading } from '../scenarios.ts';

export interface CodexScenarioContext {
  worktree: string;
  /** Resolves once Codex's notify has reported `n` finished turns in this session. */
  turnsCompleted(n: number, what: string): Promise<void>;
}

export interface CodexScenario {
  name: string;
  posture?: PermissionPosture;
  /** Leave the worktree untrusted (it has a .codex/config.toml, so Codex asks). */
  untrusted?: boolean;
  /** Runs only on these backends (default both). */
  backends?: readonly ('tmux' | 'pty')[];
  drive(pane: CapturePane, fake: FakeCodexApi, ctx: CodexScenarioContext): Promise<ExpectedReading>;
}

export const CODEX_IDLE = 'Ask Codex to do anything';
/**
 * A row that starts with the box glyph and some text (the box, its hint, or an echo) with an
 * indented footer row under it (blank rows between): the model line, or `? for shortcuts … 100%
 * context left` in 0.100.0.
 */
const BOX_OVER_FOOTER = /^\u203A \S[^\n]*\n(?:[^\S\n]*\n)* {2}\S/m;
const RUNNING = /esc to interrupt|^\u2022 Working \(/m;

/**
 * The box at rest: a `› …` row over the footer, no running turn, and the screen quiet for a
 * second. 0.169.0 draws `Ask Codex to do anything` in the empty box; older releases draw one of
 * their example prompts there instead, so the words in the box are not what is waited on.
 */
export async function codexIdle(pane: CapturePane, what: string, extra: (s: string) => boolean = () => true): Promise<string> {
  return pane.waitStable(`idle: ${what}`, {
    quietMs: 1_000,
    timeoutMs: 30_000,
    accept: (s) => BOX_OVER_FOOTER.test(s) && !RUNNING.test(s) && extra(s),
  });
}

export async function codexSubmit(pane: CapturePane, text: string): Promise<void> {
  await pane.type(text);
  await pane.waitForScreen((s) => s.includes(text), `the typed text ${JSON.stringify(text)} to show`);
  await pane.keys('Enter');
  // Submitted: the turn shows (a status line, a bullet, an end line) under the echoed prompt, or
  // the approval it asked for (0.100.0 draws it straight under the echo).
  await pane.waitForScreen((s) => RUNNING.test(s) || /^[•■⚠◦] /mu.test(s) || s.includes('Would you like to'), `${JSON.stringify(text)} to be submitted`);
}

/**
 * One turn answered in words: `answer` queued (one reply at a time, so a side request of an
 * earlier turn cannot take a later one's), `question` sent, the turn finished by Codex's own word
 * (its `n`th in the session, whatever line it draws under the turn, if any), the box at rest
 * under the answer.
 */
async function answeredTurn(pane: CapturePane, fake: FakeCodexApi, ctx: CodexScenarioContext, turn: { n: number; question: string; answer: string; what: string }): Promise<void> {
  fake.queue([{ kind: 'text', text: turn.answer }]);
  await codexSubmit(pane, turn.question);
  await ctx.turnsCompleted(turn.n, turn.what);
  await codexIdle(pane, `after ${turn.what}`, (s) => s.includes(turn.answer));
}

export const CODEX_SCENARIOS: readonly CodexScenario[] = [
  {
    name: 'idle',
    async drive(pane) {
      await codexIdle(pane, 'start');
      return { state: 'idle', promptBox: '', says: 'the empty box with its placeholder' };
    },
  },
  {
    name: 'typed',
    async drive(pane) {
      await codexIdle(pane, 'start');
      await pane.type('half typed words');
      await pane.waitStable('typed text', { accept: (s) => s.includes('› half typed words') });
      return { state: 'idle', promptBox: 'half typed words', says: 'text typed into the box, not sent' };
    },
  },
  {
    name: 'after-reply',
    async drive(pane, fake, ctx) {
      await codexIdle(pane, 'start');
      await answeredTurn(pane, fake, ctx, { n: 1, question: 'what is the answer', answer: 'The answer is forty-two.', what: 'the reply' });
      return { state: 'idle', promptBox: '', says: 'a finished turn, the empty box under it', turnEndWord: true };
    },
  },
  {
    name: 'working',
    async drive(pane, fake) {
      await codexIdle(pane, 'start');
      // No text: once a reply's text is out, 0.169.0 hides the status line until the next step.
      fake.queue([{ kind: 'hang' }]);
      await codexSubmit(pane, 'take your time');
      // The elapsed seconds and the shimmer keep a running turn's screen changing: no stable wait.
      await pane.waitForScreen((s) => /Working \(\d+s • esc to interrupt\)/.test(s), 'the running turn');
      return { state: 'working', says: 'a turn streaming, the interrupt hint above the box' };
    },
  },
  {
    name: 'streaming-reply',
    async drive(pane, fake) {
      await codexIdle(pane, 'start');
      // The reply's text is out and the response still open: 0.169.0 shows no status line then.
      fake.queue([{ kind: 'hang', text: 'Thinking it over' }]);
      await codexSubmit(pane, 'take your time');
      await pane.waitForScreen((s) => s.includes('• Thinking it over'), 'the streamed text of a running turn');
      await new Promise((r) => setTimeout(r, 1_500)); // the status line, if any, has had its chance to show
      return { state: 'working', says: 'a reply streamed, its response still open' };
    },
  },
  {
    name: 'multi-line-draft',
    async drive(pane) {
      await codexIdle(pane, 'start');
      // Ctrl+J puts a newline into Codex's box without submitting (Enter would send).
      await pane.type('first line of the draft');
      await pane.keys('C-j');
      await pane.type('second line of the draft');
      await pane.waitStable('the two-line draft', { accept: (s) => /^› first line of the draft\s*$/m.test(s) && /^ {2}second line of the draft\s*$/m.test(s) });
      return { state: 'idle', promptBox: 'first line of the draft\nsecond line of the draft', says: 'a draft of two lines typed into the box, not sent' };
    },
  },
  {
    name: 'second-turn-finished',
    async drive(pane, fake, ctx) {
      await codexIdle(pane, 'start');
      await answeredTurn(pane, fake, ctx, { n: 1, question: 'first question', answer: 'First answer.', what: 'the first reply' });
      await answeredTurn(pane, fake, ctx, { n: 2, question: 'second question', answer: 'Second answer.', what: 'the second reply' });
      return { state: 'idle', promptBox: '', says: 'two finished turns, the empty box under the second', turnEndWord: true };
    },
  },
  {
    name: 'approval',
    posture: 'ask',
    async drive(pane, fake, { worktree }) {
      await codexIdle(pane, 'start');
      fake.queue([{ kind: 'shell', cmd: `touch ${worktree}/approved.txt`, escalate: 'Do you allow creating approved.txt?' }]);
      await codexSubmit(pane, 'make approved.txt');
      await pane.waitStable('the approval prompt', { accept: (s) => s.includes('Would you like to run the following command?') && s.includes('Press enter to confirm') });
      return { state: 'blocked', reason: 'permission', says: 'asks before running an escalated command' };
    },
  },
  {
    name: 'folder-trust',
    untrusted: true,
    async drive(pane) {
      // 0.160 and later ask `Trust this folder?`; 0.140.0 `Do you trust the contents of this
      // directory?`; 0.100.0 asks nothing: it starts at the box and leaves the folder's config unread.
      const screen = await pane.waitStable('the trust screen or the box', {
        accept: (s) => s.includes('Trust this folder?') || s.includes('Do you trust the contents of this directory?') || BOX_OVER_FOOTER.test(s),
      });
      if (!screen.includes('Trust this folder?') && !screen.includes('Do you trust the contents')) throw new ScenarioSkipped('this release asks no folder-trust question: it starts at its box in an untrusted folder');
      return { state: 'blocked', reason: 'folder-trust', says: 'asks whether to trust the folder' };
    },
  },
  {
    name: 'slash-popup',
    async drive(pane) {
      await codexIdle(pane, 'start');
      await pane.type('/ex');
      await pane.waitStable('the command popup', { accept: (s) => /^› \/ex\s*$/m.test(s) && s.includes('/exit') });
      return { state: 'idle', promptBox: '/ex', says: 'a slash command half typed, its popup above the box' };
    },
  },
  {
    name: 'api-error',
    async drive(pane, fake) {
      await codexIdle(pane, 'start');
      fake.queue([{ kind: 'error', status: 400, message: 'the fake refused this request' }]);
      await codexSubmit(pane, 'this one fails');
      await codexIdle(pane, 'after the error', (s) => s.includes('■') && s.includes('this one fails'));
      return { state: 'idle', promptBox: '', agentError: true, says: 'the turn ended in an API error, the empty box under it' };
    },
  },
  {
    name: 'exited',
    // Under a pty the last frame after exit is a bare `Session ID: …` line: nothing that says exit.
    backends: ['tmux'],
    async drive(pane) {
      await codexIdle(pane, 'start');
      await pane.type('/exit');
      await pane.waitForScreen((s) => /^› \/exit\s*$/m.test(s), '/exit in the box');
      await pane.keys('Enter');
      // tmux keeps the pane (remain-on-exit) and says so; a pty keeps the last frame and the hint.
      await pane.waitDead(15_000);
      await pane.waitForScreen((s) => s.includes('To continue this session, run:') || /Pane is dead \(status 0/.test(s), 'the resume hint or the dead pane');
      return { state: 'exited', says: 'Codex ended by /exit' };
    },
  },
];
