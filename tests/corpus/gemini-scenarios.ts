/**
 * The scripted scenarios of the Gemini CLI capture corpus. Each drives a fresh Gemini CLI
 * session to one screen, proves it got there with words the scenario itself caused (never this
 * project's reader), and names the reading that screen must get.
 */
import type { FakeGemini } from '../../io/fake-model/gemini.ts';
import type { CapturePane } from './pty-pane.ts';
import type { ExpectedReading } from './scenarios.ts';

export interface GeminiSetup {
  trusted: boolean;
  apiKey: boolean;
  cols: number;
  rows: number;
  /** `--approval-mode` (default: default). */
  mode: 'default' | 'auto_edit' | 'yolo';
}

export interface GeminiScenario {
  name: string;
  setup: Partial<GeminiSetup>;
  drive(pane: CapturePane, fake: FakeGemini): Promise<ExpectedReading>;
  backends?: readonly ('tmux' | 'pty')[];
}

const CANCEL = /\(esc to cancel/i;
const rows = (s: string) => s.split('\n').map((r) => r.replace(/\s+$/u, ''));
/** The composer: a full-width rule with an input row (` > `, ` * `) a few rows under it. */
function composer(s: string): boolean {
  const r = rows(s);
  for (let i = r.length - 1; i >= 0; i--) {
    if (!/^─{20,}$/.test(r[i]!)) continue;
    return r.slice(i + 1, i + 6).some((row) => /^ {0,2}[>*] /.test(row));
  }
  return false;
}
const DIALOG = /Allow once|Answer Questions|Do you trust|How would you like to authenticate/;

export async function waitGeminiIdle(pane: CapturePane, what: string, extra: (s: string) => boolean = () => true): Promise<string> {
  return pane.waitStable(`idle: ${what}`, { quietMs: 1_200, timeoutMs: 40_000, accept: (s) => composer(s) && !CANCEL.test(s) && !DIALOG.test(s) && extra(s) });
}

/** Types the text, then Enter until it has left the input row (a dropped Enter is pressed again). */
export async function geminiSubmit(pane: CapturePane, text: string): Promise<void> {
  await pane.type(text);
  const inBox = (s: string) => rows(s).some((r) => /^ {0,2}[>*!] /.test(r) && r.trimEnd().endsWith(text));
  await pane.waitForScreen(inBox, `the typed text ${JSON.stringify(text)} in the box`);
  await new Promise((r) => setTimeout(r, 300));
  for (let i = 0; i < 3; i++) {
    await pane.keys('Enter');
    try {
      await pane.waitForScreen((s) => !composer(s) || rows(s).every((r) => !(/^ {0,2}[>*!] /.test(r) && r.endsWith(text)) || r.includes('Type your')) || CANCEL.test(s), 'the submitted text to leave the box', 2_500);
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

export const GEMINI_SCENARIOS: readonly GeminiScenario[] = [
  {
    name: 'trust-dialog',
    setup: { trusted: false },
    async drive(pane) {
      await pane.waitStable('the folder-trust dialog', { quietMs: 1_000, timeoutMs: 40_000, accept: contains(/Do you trust/) });
      return { state: 'blocked', reason: 'folder-trust' };
    },
  },
  {
    name: 'auth-dialog',
    setup: { apiKey: false },
    async drive(pane) {
      await pane.waitStable('the authentication dialog', { quietMs: 1_000, timeoutMs: 40_000, accept: contains(/How would you like to authenticate/) });
      return { state: 'blocked', reason: 'onboarding', says: 'no auth type selected and no key: the login choice' };
    },
  },
  {
    name: 'idle',
    setup: {},
    async drive(pane) {
      await waitGeminiIdle(pane, 'first box');
      return { state: 'idle', promptBox: '' };
    },
  },
  {
    name: 'idle-yolo',
    setup: { mode: 'yolo' },
    async drive(pane) {
      await waitGeminiIdle(pane, 'first box in yolo mode', contains(/YOLO/));
      return { state: 'idle', promptBox: '', says: 'the box glyph is * in yolo mode' };
    },
  },
  {
    name: 'idle-auto-edit',
    setup: { mode: 'auto_edit' },
    async drive(pane) {
      await waitGeminiIdle(pane, 'first box in auto_edit mode', contains(/auto-accept edits/));
      return { state: 'idle', promptBox: '' };
    },
  },
  {
    name: 'typed-text',
    setup: {},
    async drive(pane) {
      await waitGeminiIdle(pane, 'first box');
      await pane.type('half typed');
      await pane.waitStable('typed text in the box', { quietMs: 800, accept: (s) => rows(s).some((r) => /^ {0,2}> half typed$/.test(r)) });
      return { state: 'idle', promptBox: 'half typed' };
    },
  },
  {
    name: 'working',
    setup: {},
    async drive(pane) {
      await waitGeminiIdle(pane, 'first box');
      await geminiSubmit(pane, 'MODE:slow show the spinner');
      await pane.waitForScreen(contains(/streamed slowly/), 'the slow reply streaming', 30_000);
      await pane.waitForScreen(contains(CANCEL), 'the spinner with its cancel hint', 30_000);
      return { state: 'working' };
    },
  },
  {
    name: 'working-shell',
    setup: { mode: 'yolo' },
    async drive(pane) {
      await waitGeminiIdle(pane, 'first box');
      await geminiSubmit(pane, 'MODE:bash[[sleep 6 && echo slept]]');
      await pane.waitForScreen((s) => /sleep 6/.test(s) && CANCEL.test(s), 'the shell command running', 30_000);
      return { state: 'working', says: 'a shell command runs under yolo, nothing asked' };
    },
  },
  {
    name: 'permission-shell',
    setup: {},
    async drive(pane) {
      await waitGeminiIdle(pane, 'first box');
      await geminiSubmit(pane, 'MODE:bash make a file');
      await settle(pane, 'the shell approval', contains(/Allow once/));
      return { state: 'blocked', reason: 'permission' };
    },
  },
  {
    name: 'after-permission-yes',
    setup: {},
    backends: ['tmux'],
    async drive(pane) {
      await waitGeminiIdle(pane, 'first box');
      await geminiSubmit(pane, 'MODE:bash make a file');
      await settle(pane, 'the shell approval', contains(/Allow once/));
      await pane.keys('Enter'); // "Allow once" is preselected
      await waitGeminiIdle(pane, 'the finished tool turn', contains(/The tool finished/));
      return { state: 'idle', promptBox: '' };
    },
  },
  {
    name: 'ask-user',
    setup: {},
    async drive(pane) {
      await waitGeminiIdle(pane, 'first box');
      await geminiSubmit(pane, 'MODE:ask which db');
      await settle(pane, 'the ask_user question', contains(/SQLite/));
      return { state: 'blocked', reason: 'question' };
    },
  },
  {
    name: 'after-ask-answered',
    setup: {},
    backends: ['tmux'],
    async drive(pane) {
      await waitGeminiIdle(pane, 'first box');
      await geminiSubmit(pane, 'MODE:ask which db');
      await settle(pane, 'the ask_user question', contains(/SQLite/));
      await pane.keys('Enter');
      await waitGeminiIdle(pane, 'the answered question', contains(/The tool finished/));
      return { state: 'idle', promptBox: '' };
    },
  },
  {
    name: 'finished-turn-80x24',
    setup: { cols: 80, rows: 24 },
    async drive(pane) {
      await waitGeminiIdle(pane, 'first box in an 80×24 pane');
      await geminiSubmit(pane, 'say hello please');
      await waitGeminiIdle(pane, 'the finished turn in 80×24', contains(/fake Gemini model/));
      return { state: 'idle', promptBox: '' };
    },
  },
  {
    name: 'after-exit',
    setup: {},
    backends: ['tmux'],
    async drive(pane) {
      await waitGeminiIdle(pane, 'first box');
      await geminiSubmit(pane, '/quit');
      await pane.waitDead(20_000);
      return { state: 'exited' };
    },
  },
  {
    name: 'after-exit-80x24',
    setup: { cols: 80, rows: 24 },
    backends: ['tmux'],
    async drive(pane) {
      await waitGeminiIdle(pane, 'first box in an 80×24 pane');
      await geminiSubmit(pane, '/quit');
      await pane.waitDead(20_000);
      return { state: 'exited' };
    },
  },
];
