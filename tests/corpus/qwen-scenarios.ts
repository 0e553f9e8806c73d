/**
 * The scripted scenarios of the Qwen Code capture corpus. Each drives a fresh Qwen Code session
 * to one screen, proves it got there with words the scenario itself caused (never this project's
 * reader), and names the reading that screen must get. Qwen Code talks to the fake Anthropic API
 * (its Anthropic auth), which says its calls in Qwen Code's tool names (anthropic/tool-dialect.ts).
 */
import type { PermissionPosture } from '../../contract/vocabulary.ts';
import type { FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import type { CapturePane } from './pty-pane.ts';
import { contains, typeAndSubmit } from './scenarios.ts';
import { agentScenarios, type AgentScenario } from './agent-scenarios.ts';

export interface QwenSetup {
  cols: number;
  rows: number;
  posture: PermissionPosture;
  /** No auth chosen in the person's settings. */
  noAuth: boolean;
}

export type QwenScenario = AgentScenario<QwenSetup, FakeAnthropic>;

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
  const inBox = (s: string) => rows(s).some((r) => /^[>*!] /.test(r) && r.replace(/\u200b/g, '').trimEnd().endsWith(text));
  await typeAndSubmit(pane, text, inBox, (s) => !inBox(s));
}

const shared = agentScenarios({
  idle: waitQwenIdle,
  submit: qwenSubmit,
  dialogWithinMs: 40_000,
  running: { hint: CANCEL, what: 'the spinner with its cancel hint' },
  permission: contains(/Yes, allow once/),
  typed: (s, text) => rows(s).some((r) => r.startsWith(`> ${text}`)),
  reply: /fake model/,
});

export const QWEN_SCENARIOS: readonly QwenScenario[] = [
  {
    name: 'auth-dialog',
    setup: { noAuth: true },
    async drive(pane) {
      await pane.waitStable('the authentication dialog', { quietMs: 1_000, timeoutMs: 40_000, accept: contains(/Select Authentication Method/) });
      return { state: 'blocked', reason: 'onboarding', says: 'no auth chosen: the provider choice' };
    },
  },
  shared.idle,
  shared.idleWith('idle-yolo', { posture: 'off' as const }, 'first box in yolo mode', /YOLO/i, 'posture off: yolo mode'),
  shared.typedText,
  shared.working,
  shared.workingShell({ posture: 'off' as const }, 8, 'a shell command runs under yolo, nothing asked'),
  shared.permissionShell,
  shared.afterPermissionYes,
  shared.question('question', 'the ask_user_question menu', contains(/SQLite/)),
  shared.apiError({ message: 'fake refusal for the corpus', prompt: 'this turn is refused', what: 'the refused turn', shown: /fake refusal for the corpus/ }),
  shared.finishedTurn(true),
  shared.exit('/quit', false),
];
