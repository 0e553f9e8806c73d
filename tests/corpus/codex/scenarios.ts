/**
 * The scripted Codex CLI scenarios of the capture corpus. Each drives a fresh session to one
 * screen, proves it got there by words the scenario itself caused (never by our reader), and
 * names the reading that screen must get.
 */
import type { PermissionPosture } from '../../../contract/vocabulary.ts';
import type { FakeCodexApi } from '../../../io/fake-model/codex.ts';
import type { CapturePane } from '../pty-pane.ts';
import type { ExpectedReading } from '../scenarios.ts';

export interface CodexScenario {
  name: string;
  posture?: PermissionPosture;
  /** Leave the worktree untrusted (it has a .codex/config.toml, so Codex asks). */
  untrusted?: boolean;
  /** Runs only on these backends (default both). */
  backends?: readonly ('tmux' | 'pty')[];
  drive(pane: CapturePane, fake: FakeCodexApi, ctx: { worktree: string }): Promise<ExpectedReading>;
}

export const CODEX_IDLE = 'Ask Codex to do anything';

export async function codexIdle(pane: CapturePane, what: string, extra: (s: string) => boolean = () => true): Promise<string> {
  return pane.waitStable(`idle: ${what}`, {
    quietMs: 1_000,
    timeoutMs: 30_000,
    accept: (s) => s.includes(CODEX_IDLE) && !s.includes('esc to interrupt') && extra(s),
  });
}

export async function codexSubmit(pane: CapturePane, text: string): Promise<void> {
  await pane.type(text);
  await pane.waitForScreen((s) => s.includes(text), `the typed text ${JSON.stringify(text)} to show`);
  await pane.keys('Enter');
  // Submitted: the box is back to its placeholder, or the turn shows (an echo looks like the box).
  await pane.waitForScreen((s) => s.includes(CODEX_IDLE) || /esc to interrupt|^[•■] /m.test(s), `${JSON.stringify(text)} to be submitted`);
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
    async drive(pane, fake) {
      await codexIdle(pane, 'start');
      fake.queue([{ kind: 'text', text: 'The answer is forty-two.' }]);
      await codexSubmit(pane, 'what is the answer');
      await codexIdle(pane, 'after the reply', (s) => s.includes('The answer is forty-two.') && s.includes('Worked for'));
      return { state: 'idle', promptBox: '', says: 'a finished turn, the empty box under it' };
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
      await pane.waitStable('the trust screen', { accept: (s) => s.includes('Trust this folder?') });
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
