/**
 * The scripted scenarios of the OpenCode capture corpus. Each drives a fresh OpenCode session to
 * one screen, proves it got there with words the scenario itself caused (never this project's
 * reader), and names the reading that screen must get. OpenCode talks to the fake Anthropic API,
 * which says its calls in OpenCode's tool names (io/fake-model/anthropic/tool-dialect.ts).
 */
import type { PermissionPosture } from '../../contract/vocabulary.ts';
import type { FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import type { CapturePane } from './pty-pane.ts';
import type { ExpectedReading } from './scenarios.ts';

export interface OpencodeSetup {
  cols: number;
  rows: number;
  posture: PermissionPosture;
}

export interface OpencodeScenario {
  name: string;
  setup: Partial<OpencodeSetup>;
  /** `run.worktree`: where a scenario's files go. */
  drive(pane: CapturePane, fake: FakeAnthropic, run: { worktree: string }): Promise<ExpectedReading>;
  backends?: readonly ('tmux' | 'pty')[];
}

const rows = (s: string) => s.split('\n').map((r) => r.replace(/\s+$/u, ''));
/** The composer's bottom edge (`╹▀▀▀…`) with its status row under it. */
const BOTTOM = /^\s*╹▀{10,}/;
const RUNNING = /esc (?:again to )?interrupt/;
const DIALOG = /Permission required|↑↓ select/;

/** The composer is drawn: its bottom edge and the agent's name row (`Build · …`) above it. */
function composer(s: string): boolean {
  const r = rows(s);
  for (let i = r.length - 1; i > 0; i--) if (BOTTOM.test(r[i]!)) return /┃\s+\S+ · /.test(r[i - 1]!);
  return false;
}

export async function waitOpencodeIdle(pane: CapturePane, what: string, extra: (s: string) => boolean = () => true): Promise<string> {
  return pane.waitStable(`idle: ${what}`, { quietMs: 1_500, timeoutMs: 60_000, accept: (s) => composer(s) && !RUNNING.test(s) && !DIALOG.test(s) && extra(s) });
}

/** The composer's input rows (between the panel's top and the agent row), trimmed. */
function inputRows(s: string): string[] {
  const r = rows(s);
  for (let i = r.length - 1; i > 1; i--) {
    if (!BOTTOM.test(r[i]!)) continue;
    const out: string[] = [];
    for (let k = i - 2; k >= 0 && /^\s*┃/.test(r[k]!); k--) out.unshift(r[k]!.replace(/^\s*┃/, '').trim());
    return out.filter((t) => t !== '');
  }
  return [];
}

/** Types the text, then Enter until it has left the composer (a dropped Enter is pressed again). */
export async function opencodeSubmit(pane: CapturePane, text: string): Promise<void> {
  await pane.type(text);
  await pane.waitForScreen((s) => inputRows(s).join(' ').includes(text), `the typed text ${JSON.stringify(text)} in the box`);
  await new Promise((r) => setTimeout(r, 300));
  for (let i = 0; i < 3; i++) {
    await pane.keys('Enter');
    try {
      await pane.waitForScreen((s) => !inputRows(s).join(' ').includes(text) || !composer(s), 'the submitted text to leave the box', 3_000);
      return;
    } catch {
      /* pressed again below */
    }
  }
  throw new Error(`Enter did not submit ${JSON.stringify(text)}`);
}

const contains = (re: RegExp) => (s: string) => re.test(s);

async function settle(pane: CapturePane, what: string, accept: (s: string) => boolean): Promise<void> {
  await pane.waitForScreen(accept, what, 60_000);
  await new Promise((r) => setTimeout(r, 1_000));
  await pane.waitForScreen(accept, `${what}, still up a second later`, 5_000);
}

export const OPENCODE_SCENARIOS: readonly OpencodeScenario[] = [
  {
    name: 'idle',
    setup: {},
    async drive(pane) {
      await waitOpencodeIdle(pane, 'the first box', contains(/Ask anything/));
      return { state: 'idle', promptBox: '', says: 'the home screen: logo, the box with its example placeholder' };
    },
  },
  {
    name: 'typed-text',
    setup: {},
    async drive(pane) {
      await waitOpencodeIdle(pane, 'the first box');
      await pane.type('half typed');
      await pane.waitStable('typed text in the box', { quietMs: 800, accept: (s) => inputRows(s).includes('half typed') });
      return { state: 'idle', promptBox: 'half typed' };
    },
  },
  {
    name: 'finished-turn',
    setup: {},
    async drive(pane) {
      await waitOpencodeIdle(pane, 'the first box');
      await opencodeSubmit(pane, 'say hello please');
      await waitOpencodeIdle(pane, 'the finished turn', contains(/fake model/));
      return { state: 'idle', promptBox: '' };
    },
  },
  {
    name: 'typed-after-turn',
    setup: {},
    async drive(pane) {
      await waitOpencodeIdle(pane, 'the first box');
      await opencodeSubmit(pane, 'say hello please');
      await waitOpencodeIdle(pane, 'the finished turn', contains(/fake model/));
      await pane.type('next thing');
      await pane.waitStable('typed text in the box', { quietMs: 800, accept: (s) => inputRows(s).includes('next thing') });
      return { state: 'idle', promptBox: 'next thing', says: 'a session screen: the echoed prompt above is drawn in the same kind of panel' };
    },
  },
  {
    name: 'working',
    setup: {},
    async drive(pane) {
      await waitOpencodeIdle(pane, 'the first box');
      await opencodeSubmit(pane, 'MODE:slow show the spinner');
      await pane.waitForScreen(contains(/streamed slowly/), 'the slow reply streaming', 30_000);
      await pane.waitForScreen(contains(RUNNING), 'the running turn with its interrupt hint', 30_000);
      return { state: 'working' };
    },
  },
  {
    name: 'working-shell',
    setup: { posture: 'off' },
    async drive(pane) {
      await waitOpencodeIdle(pane, 'the first box');
      await opencodeSubmit(pane, 'MODE:bash[[sleep 8 && echo slept]]');
      await pane.waitForScreen((s) => /sleep 8/.test(s) && RUNNING.test(s), 'the shell command running', 30_000);
      return { state: 'working', says: 'a shell command runs under off, nothing asked' };
    },
  },
  {
    name: 'permission-shell',
    setup: { posture: 'ask' },
    async drive(pane) {
      await waitOpencodeIdle(pane, 'the first box');
      await opencodeSubmit(pane, 'MODE:bash make a file');
      await settle(pane, 'the shell approval', (s) => /Permission required/.test(s) && /Allow once/.test(s) && /touch fake-artifact/.test(s));
      return { state: 'blocked', reason: 'permission' };
    },
  },
  {
    name: 'permission-edit',
    setup: { posture: 'ask' },
    async drive(pane, _fake, run) {
      await waitOpencodeIdle(pane, 'the first box');
      await opencodeSubmit(pane, `MODE:report ${run.worktree}/notes.md`);
      await settle(pane, 'the edit approval', (s) => /Permission required/.test(s) && /Allow once/.test(s) && /notes\.md/.test(s));
      return { state: 'blocked', reason: 'permission', says: 'the new file drawn as a diff under the question' };
    },
  },
  {
    name: 'after-permission-yes',
    setup: { posture: 'ask' },
    backends: ['tmux'],
    async drive(pane) {
      await waitOpencodeIdle(pane, 'the first box');
      await opencodeSubmit(pane, 'MODE:bash make a file');
      await settle(pane, 'the shell approval', contains(/Allow once/));
      await pane.keys('Enter'); // "Allow once" is preselected
      await waitOpencodeIdle(pane, 'the finished tool turn', contains(/The tool finished/));
      return { state: 'idle', promptBox: '' };
    },
  },
  {
    name: 'question',
    setup: {},
    async drive(pane) {
      await waitOpencodeIdle(pane, 'the first box');
      await opencodeSubmit(pane, 'MODE:ask which db');
      await settle(pane, 'the question', (s) => /SQLite/.test(s) && /↑↓ select/.test(s));
      return { state: 'blocked', reason: 'question' };
    },
  },
  {
    name: 'question-second-option',
    setup: {},
    backends: ['tmux'],
    async drive(pane) {
      await waitOpencodeIdle(pane, 'the first box');
      await opencodeSubmit(pane, 'MODE:ask which db');
      await settle(pane, 'the question', (s) => /SQLite/.test(s) && /↑↓ select/.test(s));
      await pane.keys('Down');
      await new Promise((r) => setTimeout(r, 800));
      return { state: 'blocked', reason: 'question', says: 'the cursor moved to the second option (drawn by colour only)' };
    },
  },
  {
    name: 'after-question-answered',
    setup: {},
    backends: ['tmux'],
    async drive(pane) {
      await waitOpencodeIdle(pane, 'the first box');
      await opencodeSubmit(pane, 'MODE:ask which db');
      await settle(pane, 'the question', (s) => /SQLite/.test(s) && /↑↓ select/.test(s));
      await pane.keys('Enter');
      await waitOpencodeIdle(pane, 'the answered question', contains(/The tool finished/));
      return { state: 'idle', promptBox: '' };
    },
  },
  {
    name: 'api-error',
    setup: {},
    async drive(pane, fake) {
      await waitOpencodeIdle(pane, 'the first box');
      fake.queue([{ kind: 'error', status: 400, errorType: 'invalid_request_error', message: 'fake: this request is refused' }]);
      await opencodeSubmit(pane, 'this turn fails');
      await waitOpencodeIdle(pane, 'the failed turn', contains(/this request is refused/));
      return { state: 'idle', promptBox: '', agentError: true };
    },
  },
  {
    name: 'finished-turn-80x24',
    setup: { cols: 80, rows: 24 },
    async drive(pane) {
      await waitOpencodeIdle(pane, 'the first box in an 80×24 pane');
      await opencodeSubmit(pane, 'say hello please');
      await waitOpencodeIdle(pane, 'the finished turn in 80×24', contains(/fake model/));
      return { state: 'idle', promptBox: '' };
    },
  },
  {
    name: 'after-exit',
    setup: {},
    backends: ['tmux'],
    async drive(pane) {
      await waitOpencodeIdle(pane, 'the first box');
      await opencodeSubmit(pane, 'say hello please');
      await waitOpencodeIdle(pane, 'the finished turn', contains(/fake model/));
      await opencodeSubmit(pane, '/exit');
      await pane.waitDead(20_000);
      return { state: 'exited' };
    },
  },
  {
    name: 'after-exit-80x24',
    setup: { cols: 80, rows: 24 },
    backends: ['tmux'],
    async drive(pane) {
      await waitOpencodeIdle(pane, 'the first box in an 80×24 pane');
      await opencodeSubmit(pane, '/exit');
      await pane.waitDead(20_000);
      return { state: 'exited' };
    },
  },
];
