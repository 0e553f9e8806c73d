/**
 * The scripted scenarios of the Qwen Code capture corpus. Each drives a fresh Qwen Code session
 * to one screen, proves it got there with words the scenario itself caused (never this project's
 * reader), and names the reading that screen must get. Qwen Code talks to the fake Anthropic API
 * (its Anthropic auth), which says its calls in Qwen Code's tool names (anthropic/tool-dialect.ts).
 */
import type { PermissionPosture } from '../../contract/vocabulary.ts';
import type { FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import type { CapturePane } from './pty-pane.ts';
import type { ExpectedReading } from './scenarios.ts';

export interface QwenSetup {
  cols: number;
  rows: number;
  posture: PermissionPosture;
  /** No auth chosen in the person's settings. */
  noAuth: boolean;
}

export interface QwenScenario {
  name: string;
  setup: Partial<QwenSetup>;
  drive(pane: CapturePane, fake: FakeAnthropic): Promise<ExpectedReading>;
  backends?: readonly ('tmux' | 'pty')[];
}

const CANCEL = /esc to cancel\)/i;
const rows = (s: string) => s.split('\n').map((r) => r.replace(/\s+$/u, ''));
/** The composer: a full-width rule with the input row (`> `, `* `) at column 0 right under it. */
function composer(s: string): boolean {
  const r = rows(s);
  for (let i = r.length - 1; i > 0; i--) if (/^[>*!] /.test(r[i]!) && /^─{20,}$/.test(r[i - 1]!)) return true;
  return false;
}
const DIALOG = /Yes, allow once|Type something\.\.\.|Select Authentication Method/;

export async function waitQwenIdle(pane: CapturePane, what: string, extra: (s: string) => boolean = () => true): Promise<string> {
  return pane.waitStable(`idle: ${what}`, { quietMs: 1_200, timeoutMs: 40_000, accept: (s) => composer(s) && !CANCEL.test(s) && !DIALOG.test(s) && extra(s) });
}

/** Types the text, then Enter until it has left the input row (a dropped Enter is pressed again). */
export async function qwenSubmit(pane: CapturePane, text: string): Promise<void> {
  await pane.type(text);
  const inBox = (s: string) => rows(s).some((r) => /^[>*!] /.test(r) && r.replace(/\u200b/g, '').trimEnd().endsWith(text));
  await pane.waitForScreen(inBox, `the typed text ${JSON.stringify(text)} in the box`);
  await new Promise((r) => setTimeout(r, 300));
  for (let i = 0; i < 3; i++) {
    await pane.keys('Enter');
    try {
      await pane.waitForScreen((s) => !inBox(s), 'the submitted text to leave the box', 2_500);
      return;
    } catch {
      /* pressed again below */
    }
  }
  throw new Error(`Enter did not submit ${JSON.stringify(text)}`);
}

const contains = (re: RegExp) => (s: string) => re.test(s);

async function settle(pane: CapturePane, what: string, accept: (s: string) => boolean): Promise<void> {
  await pane.waitForScreen(accept, what, 40_000);
  await new Promise((r) => setTimeout(r, 1_000));
  await pane.waitForScreen(accept, `${what}, still up a second later`, 5_000);
}

export const QWEN_SCENARIOS: readonly QwenScenario[] = [
  {
    name: 'auth-dialog',
    setup: { noAuth: true },
    async drive(pane) {
      await pane.waitStable('the authentication dialog', { quietMs: 1_000, timeoutMs: 40_000, accept: contains(/Select Authentication Method/) });
      return { state: 'blocked', reason: 'onboarding', says: 'no auth chosen: the provider choice' };
    },
  },
  {
    name: 'idle',
    setup: {},
    async drive(pane) {
      await waitQwenIdle(pane, 'first box');
      return { state: 'idle', promptBox: '' };
    },
  },
  {
    name: 'idle-yolo',
    setup: { posture: 'off' },
    async drive(pane) {
      await waitQwenIdle(pane, 'first box in yolo mode', contains(/YOLO/i));
      return { state: 'idle', promptBox: '', says: 'posture off: yolo mode' };
    },
  },
  {
    name: 'typed-text',
    setup: {},
    async drive(pane) {
      await waitQwenIdle(pane, 'first box');
      await pane.type('half typed');
      await pane.waitStable('typed text in the box', { quietMs: 800, accept: (s) => rows(s).some((r) => /^> half typed/.test(r)) });
      return { state: 'idle', promptBox: 'half typed' };
    },
  },
  {
    name: 'working',
    setup: {},
    async drive(pane) {
      await waitQwenIdle(pane, 'first box');
      await qwenSubmit(pane, 'MODE:slow show the spinner');
      await pane.waitForScreen(contains(/streamed slowly/), 'the slow reply streaming', 30_000);
      await pane.waitForScreen(contains(CANCEL), 'the spinner with its cancel hint', 30_000);
      return { state: 'working' };
    },
  },
  {
    name: 'working-shell',
    setup: { posture: 'off' },
    async drive(pane) {
      await waitQwenIdle(pane, 'first box');
      await qwenSubmit(pane, 'MODE:bash[[sleep 8 && echo slept]]');
      await pane.waitForScreen((s) => /sleep 8/.test(s) && CANCEL.test(s), 'the shell command running', 30_000);
      return { state: 'working', says: 'a shell command runs under yolo, nothing asked' };
    },
  },
  {
    name: 'permission-shell',
    setup: {},
    async drive(pane) {
      await waitQwenIdle(pane, 'first box');
      await qwenSubmit(pane, 'MODE:bash make a file');
      await settle(pane, 'the shell approval', contains(/Yes, allow once/));
      return { state: 'blocked', reason: 'permission' };
    },
  },
  {
    name: 'after-permission-yes',
    setup: {},
    backends: ['tmux'],
    async drive(pane) {
      await waitQwenIdle(pane, 'first box');
      await qwenSubmit(pane, 'MODE:bash make a file');
      await settle(pane, 'the shell approval', contains(/Yes, allow once/));
      await pane.keys('Enter'); // "Yes, allow once" is preselected
      await waitQwenIdle(pane, 'the finished tool turn', contains(/The tool finished/));
      return { state: 'idle', promptBox: '' };
    },
  },
  {
    name: 'question',
    setup: {},
    async drive(pane) {
      await waitQwenIdle(pane, 'first box');
      await qwenSubmit(pane, 'MODE:ask which db');
      await settle(pane, 'the ask_user_question menu', contains(/SQLite/));
      return { state: 'blocked', reason: 'question' };
    },
  },
  {
    name: 'api-error',
    setup: {},
    async drive(pane, fake) {
      await waitQwenIdle(pane, 'first box');
      fake.queue([{ kind: 'error', status: 400, errorType: 'invalid_request_error', message: 'fake refusal for the corpus' }]);
      await qwenSubmit(pane, 'this turn is refused');
      await waitQwenIdle(pane, 'the refused turn', contains(/fake refusal for the corpus/));
      return { state: 'idle', promptBox: '', agentError: true };
    },
  },
  {
    name: 'finished-turn-80x24',
    setup: { cols: 80, rows: 24 },
    async drive(pane) {
      await waitQwenIdle(pane, 'first box in an 80×24 pane');
      await qwenSubmit(pane, 'say hello please');
      await waitQwenIdle(pane, 'the finished turn in 80×24', contains(/fake model/));
      return { state: 'idle', promptBox: '' };
    },
  },
  {
    name: 'after-exit',
    setup: {},
    backends: ['tmux'],
    async drive(pane) {
      await waitQwenIdle(pane, 'first box');
      await qwenSubmit(pane, '/quit');
      await pane.waitDead(20_000);
      return { state: 'exited' };
    },
  },
];
