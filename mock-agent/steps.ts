/**
 * What a turn does, as a list of steps, and the built-in turns chosen by trigger words in the
 * prompt (the same words the fake Anthropic API of the lab used: MODE:ask, MODE:bash, MODE:slow,
 * MODE:hang, plus the mock's own MODE:silent, MODE:crash, MODE:report <path>, MODE:error, MODE:limit).
 */
import type { QuestionOption } from './layout-dialogs.ts';
import { parkSteps } from './park-steps.ts';
import { FAKE_QUESTION } from '../contract/fake-question.ts';

export type Step =
  /** Spinner only, for `ms` real milliseconds. */
  | { kind: 'think'; ms: number }
  /** A reply; streamed over `ms` (the bullet stays empty meanwhile, as in the real program). */
  | { kind: 'reply'; text: string; ms?: number }
  /**
   * A Bash tool call that needs permission (manual mode); nothing is executed. `description`
   * is shown in the dialog, `activity` (its -ing form) on the transcript's tool line.
   */
  | { kind: 'bash'; command: string; description?: string; activity?: string; output?: string }
  /** AskUserQuestion; `{answer}` in later reply texts becomes the chosen label. */
  | { kind: 'ask'; header: string; question: string; options: QuestionOption[] }
  /** Writes a file (relative paths are resolved against the agent's cwd). */
  | { kind: 'write'; path: string; content?: string }
  /** Ends the turn with an API-error line and no finished line. */
  | { kind: 'error'; text: string }
  /** Spinner and timer keep ticking forever (a stall); Escape interrupts. */
  | { kind: 'hang' }
  /** The screen never changes again (not even the spinner); Escape interrupts. */
  | { kind: 'silent' }
  /** The process exits with `code` at once (a crash). */
  | { kind: 'exit'; code: number };

export interface Timings {
  /** One mock second: the spinner/timer tick. */
  tickMs: number;
  /** Thinking time of an ordinary reply. */
  replyMs: number;
  /** Total duration of MODE:slow. */
  slowMs: number;
  /** Time before the first screen is drawn (0: at once). */
  startMs: number;
}

export const SLOW_REPLY =
  'This reply is streamed slowly, word by word, so that the spinner and the elapsed timer stay visible for a while before the turn completes.';

export const DEFAULT_QUESTION: Extract<Step, { kind: 'ask' }> = {
  kind: 'ask',
  header: FAKE_QUESTION.header,
  question: FAKE_QUESTION.question,
  options: [...FAKE_QUESTION.options],
};

export const REPORT_TEXT = (prompt: string): string =>
  [
    '# Report',
    '',
    '## Summary',
    'The mock agent finished the task it was given.',
    '',
    '## Prompt',
    prompt,
    '',
    '## Open questions',
    'None.',
    '',
  ].join('\n');

/** The steps for a prompt that no scenario entry claimed. */
export function builtInSteps(prompt: string, t: Timings): Step[] {
  const think: Step = { kind: 'think', ms: t.replyMs };
  const park = parkSteps(prompt, t);
  if (park) return park;
  if (prompt.includes('MODE:crash')) return [think, { kind: 'exit', code: 3 }];
  if (prompt.includes('MODE:silent')) return [{ kind: 'silent' }];
  if (prompt.includes('MODE:hang')) return [{ kind: 'hang' }];
  if (prompt.includes('MODE:slow')) {
    const lead = Math.min(t.tickMs, t.slowMs);
    return [{ kind: 'think', ms: lead }, { kind: 'reply', text: SLOW_REPLY, ms: Math.max(0, t.slowMs - lead) }];
  }
  if (prompt.includes('MODE:error')) return [think, { kind: 'error', text: 'API Error: 400 fake invalid_request_error' }];
  // The plan's limit ends the turn the way an API error does, in the words Claude Code prints.
  if (prompt.includes('MODE:limit')) return [think, { kind: 'error', text: "You've hit your limit · resets 3pm (Europe/Paris)" }];
  const report = /MODE:report\s+(\S+)/.exec(prompt);
  if (report) {
    const path = report[1] as string;
    return [think, { kind: 'write', path, content: REPORT_TEXT(prompt) }, think, { kind: 'reply', text: `I wrote the report to ${path}.` }];
  }
  if (prompt.includes('MODE:ask')) {
    return [think, DEFAULT_QUESTION, think, { kind: 'reply', text: 'The tool finished: you chose {answer}.' }];
  }
  if (prompt.includes('MODE:bash')) {
    const custom = /MODE:bash\[\[(.+?)\]\]/.exec(prompt);
    const command = custom ? (custom[1] as string) : 'touch mock-artifact.txt && echo created mock-artifact.txt';
    const output = custom ? 'done' : 'created mock-artifact.txt';
    return [
      think,
      { kind: 'reply', text: 'I will run a command.' },
      { kind: 'bash', command, description: 'Create a mock artifact file', activity: 'Creating a mock artifact file', output },
      think,
      { kind: 'reply', text: `The tool finished: ${output}` },
    ];
  }
  return [think, { kind: 'reply', text: `Hello from the mock agent. I read your message (${prompt.length} characters).` }];
}
