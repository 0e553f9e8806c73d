/**
 * The scripted scenarios of the Gemini CLI capture corpus. Each drives a fresh Gemini CLI
 * session to one screen, proves it got there with words the scenario itself caused (never this
 * project's reader), and names the reading that screen must get.
 */
import type { FakeGemini } from '../../io/fake-model/gemini.ts';
import type { CapturePane } from './pty-pane.ts';
import { contains, typeAndSubmit } from './scenarios.ts';
import { agentScenarios, type AgentScenario } from './agent-scenarios.ts';

export interface GeminiSetup {
  trusted: boolean;
  apiKey: boolean;
  cols: number;
  rows: number;
  /** `--approval-mode` (default: default). */
  mode: 'default' | 'auto_edit' | 'yolo';
  /**
   * The start held before the configuration is loaded: the worktree's GEMINI.md is a named pipe
   * nobody writes, so the read of it while Gemini CLI loads never ends (the pane is killed after).
   */
  heldStart: boolean;
}

export type GeminiScenario = AgentScenario<GeminiSetup, FakeGemini>;

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
  const inBox = (s: string) => rows(s).some((r) => /^ {0,2}[>*!] /.test(r) && r.trimEnd().endsWith(text));
  const left = (s: string) => !composer(s) || rows(s).every((r) => !(/^ {0,2}[>*!] /.test(r) && r.endsWith(text)) || r.includes('Type your')) || CANCEL.test(s);
  await typeAndSubmit(pane, text, inBox, left);
}

const shared = agentScenarios({
  idle: waitGeminiIdle,
  submit: geminiSubmit,
  dialogWithinMs: 40_000,
  running: { hint: CANCEL, what: 'the spinner with its cancel hint' },
  permission: contains(/Allow once/),
  typed: (s, text) => rows(s).some((r) => /^ {0,2}> /.test(r) && r.replace(/^ {0,2}> /, '') === text),
  reply: /fake Gemini model/,
});

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
    name: 'starting-up',
    setup: { heldStart: true },
    async drive(pane) {
      // The composer is drawn; the header and the tips, which open the transcript, never are.
      const screen = await waitGeminiIdle(pane, 'the box drawn while the start is held');
      if (/Tips for getting started|Gemini CLI v/.test(screen)) throw new Error('the start was not held: the transcript is drawn');
      return { state: 'idle', promptBox: '', startingUp: true, says: 'the box is up but the configuration is still loading' };
    },
  },
  shared.idle,
  shared.idleWith('idle-yolo', { mode: 'yolo' as const }, 'first box in yolo mode', /YOLO/, 'the box glyph is * in yolo mode'),
  shared.idleWith('idle-auto-edit', { mode: 'auto_edit' as const }, 'first box in auto_edit mode', /auto-accept edits/),
  shared.typedText,
  shared.working,
  shared.workingShell({ mode: 'yolo' as const }, 6, 'a shell command runs under yolo, nothing asked'),
  shared.permissionShell,
  shared.afterPermissionYes,
  shared.question('ask-user', 'the ask_user question', contains(/SQLite/)),
  shared.questionAnswered('after-ask-answered', 'the ask_user question', contains(/SQLite/)),
  shared.finishedTurn(true),
  shared.exit('/quit', false),
  shared.exit('/quit', true),
];
