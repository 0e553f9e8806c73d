/**
 * The scripted scenarios of the OpenCode capture corpus. Each drives a fresh OpenCode session to
 * one screen, proves it got there with words the scenario itself caused (never this project's
 * reader), and names the reading that screen must get. OpenCode talks to the fake Anthropic API,
 * which says its calls in OpenCode's tool names (io/fake-model/anthropic/tool-dialect.ts).
 */
import type { PermissionPosture } from '../../contract/vocabulary.ts';
import type { FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import type { CapturePane } from './pty-pane.ts';
import { contains, settle, typeAndSubmit } from './scenarios.ts';
import { agentScenarios, type AgentScenario } from './agent-scenarios.ts';

export interface OpencodeSetup {
  cols: number;
  rows: number;
  posture: PermissionPosture;
}

/** `run.worktree`: where a scenario's files go. */
export type OpencodeScenario = AgentScenario<OpencodeSetup, FakeAnthropic, { worktree: string }>;

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
  const inBox = (s: string) => inputRows(s).join(' ').includes(text);
  await typeAndSubmit(pane, text, inBox, (s) => !inBox(s) || !composer(s), 3_000);
}

/** OpenCode's dialogs may take longer to come up (a 185 MB binary). */
const DIALOG_WITHIN_MS = 60_000;
const PERMISSION = (s: string) => /Permission required/.test(s) && /Allow once/.test(s) && /touch fake-artifact/.test(s);
const QUESTION = (s: string) => /SQLite/.test(s) && /↑↓ select/.test(s);

const shared = agentScenarios({
  idle: waitOpencodeIdle,
  submit: opencodeSubmit,
  dialogWithinMs: DIALOG_WITHIN_MS,
  running: { hint: RUNNING, what: 'the running turn with its interrupt hint' },
  permission: PERMISSION,
  typed: (s, text) => inputRows(s).includes(text),
  reply: /fake model/,
});

export const OPENCODE_SCENARIOS: readonly OpencodeScenario[] = [
  {
    name: 'idle',
    setup: {},
    async drive(pane) {
      await waitOpencodeIdle(pane, 'the first box', contains(/Ask anything/));
      return { state: 'idle', promptBox: '', says: 'the home screen: logo, the box with its example placeholder' };
    },
  },
  shared.typedText,
  shared.finishedTurn(false),
  {
    name: 'typed-after-turn',
    setup: {},
    async drive(pane) {
      await shared.steps.turn(pane);
      await pane.type('next thing');
      await pane.waitStable('typed text in the box', { quietMs: 800, accept: (s) => inputRows(s).includes('next thing') });
      return { state: 'idle', promptBox: 'next thing', says: 'a session screen: the echoed prompt above is drawn in the same kind of panel' };
    },
  },
  shared.working,
  shared.workingShell({ posture: 'off' as const }, 8, 'a shell command runs under off, nothing asked'),
  // Posture ask, the capture's default.
  shared.permissionShell,
  {
    name: 'permission-edit',
    setup: { posture: 'ask' },
    async drive(pane, _fake, run) {
      await waitOpencodeIdle(pane, 'the first box');
      await opencodeSubmit(pane, `MODE:report ${run.worktree}/notes.md`);
      await settle(pane, 'the edit approval', (s) => /Permission required/.test(s) && /Allow once/.test(s) && /notes\.md/.test(s), DIALOG_WITHIN_MS);
      return { state: 'blocked', reason: 'permission', says: 'the new file drawn as a diff under the question' };
    },
  },
  shared.afterPermissionYes,
  shared.question('question', 'the question', QUESTION),
  {
    name: 'question-second-option',
    setup: {},
    backends: ['tmux'],
    async drive(pane) {
      await shared.steps.question(pane, 'the question', QUESTION);
      await pane.keys('Down');
      await new Promise((r) => setTimeout(r, 800));
      return { state: 'blocked', reason: 'question', says: 'the cursor moved to the second option (drawn by colour only)' };
    },
  },
  shared.questionAnswered('after-question-answered', 'the question', QUESTION),
  shared.apiError({ message: 'fake: this request is refused', prompt: 'this turn fails', what: 'the failed turn', shown: /this request is refused/ }),
  shared.finishedTurn(true),
  {
    name: 'after-exit',
    setup: {},
    backends: ['tmux'],
    async drive(pane) {
      await shared.steps.turn(pane);
      await opencodeSubmit(pane, '/exit');
      await pane.waitDead(20_000);
      return { state: 'exited' };
    },
  },
  shared.exit('/exit', true),
];
