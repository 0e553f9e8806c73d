/**
 * How the fake Gemini model decides what to answer: the queue first, then the end of a tool
 * round-trip, then trigger words in the prompt (the same words as the Anthropic fake, so a brief
 * written for one agent drives the other). Pure: no sockets, no timers.
 */
import type { GeminiRequestKind, GeminiRequestSummary } from './request-summary.ts';
import { FAKE_QUESTION, FAKE_QUESTION_TWO_CHOICES } from '../../../contract/fake-question.ts';

/** One scripted model reply (one HTTP response). */
export type GeminiScriptItem =
  | { kind: 'text'; text: string; /** Stream one word every this many ms; 0 or absent = one chunk. */ wordDelayMs?: number }
  | {
      kind: 'call';
      /** A Gemini CLI tool: run_shell_command, write_file, read_file, ask_user, … */
      name: string;
      args: Record<string, unknown>;
      /** Text streamed before the call (`✦ I will run a command.`). */
      text?: string;
    }
  | { kind: 'error'; status: number; message: string; text?: undefined }
  /** Opens the stream (text first, if any) and keeps it open until the client or close() ends it. */
  | { kind: 'hang'; text?: string };

export const DEFAULT_SHELL_COMMAND = 'touch fake-artifact.txt && echo created fake-artifact.txt';

export function fakeGeminiReport(path: string): string {
  return `# Report\n\nWritten by the fake Gemini model to ${path}.\n\nStatus: done. No open questions.\n`;
}

export const GEMINI_ASK_INPUT = {
  questions: [
    {
      question: FAKE_QUESTION.question,
      header: FAKE_QUESTION.header,
      type: 'choice',
      options: FAKE_QUESTION_TWO_CHOICES,
    },
  ],
};

/** The router's classifier wants this JSON (Gemini CLI 0.61.0's `complexity_score` schema). */
export const ROUTER_REPLY = JSON.stringify({ complexity_reasoning: 'A fake task.', complexity_score: 10 });

/** `hand dispatch`'s first prompt names the brief: the fake reads it as a model would. */
const BRIEF_PROMPT = /Read the brief at (\S+) in full/;

function cleanPath(raw: string): string {
  return raw.replace(/^["'`(<]+/, '').replace(/["'`)>,;:.]+$/, '');
}

/** The reply chosen by trigger words in a prompt (the first `MODE:` wins); plain text otherwise. */
export function geminiReplyForPrompt(prompt: string): GeminiScriptItem {
  const brief = BRIEF_PROMPT.exec(prompt);
  if (brief && !/MODE:[a-z]/.test(prompt)) return { kind: 'call', name: 'read_file', text: 'I will read the brief.', args: { file_path: cleanPath(brief[1]!) } };
  const mode = /MODE:([a-z]+)/.exec(prompt)?.[1];
  const report = /MODE:report\s+(\S+)/.exec(prompt);
  if (mode === 'report' && report) {
    const path = cleanPath(report[1]!);
    return { kind: 'call', name: 'write_file', text: 'I will write the report.', args: { file_path: path, content: fakeGeminiReport(path) } };
  }
  if (mode === 'ask') return { kind: 'call', name: 'ask_user', text: 'I have a question.', args: GEMINI_ASK_INPUT };
  if (mode === 'bash') {
    const custom = /MODE:bash\[\[(.+?)\]\]/.exec(prompt);
    return { kind: 'call', name: 'run_shell_command', text: 'I will run a command.', args: { command: custom ? custom[1]! : DEFAULT_SHELL_COMMAND, description: 'Create a fake artifact file' } };
  }
  if (mode === 'slow') return { kind: 'text', text: 'This reply is streamed slowly, word by word, so the spinner shows.', wordDelayMs: 500 };
  if (mode === 'hang') return { kind: 'hang' };
  return { kind: 'text', text: 'Done. This is the fake Gemini model.' };
}

/** After a tool: a read brief with a trigger is acted on like a prompt; otherwise one closing line. */
export function geminiReplyAfterTools(summary: GeminiRequestSummary): GeminiScriptItem {
  const first = summary.functionResponses[0]!;
  if (first.name === 'read_file' && !first.isError && /MODE:[a-z]/.test(first.content)) return geminiReplyForPrompt(first.content);
  const line = first.content.replace(/<\/?untrusted_context>/g, '').split('\n').find((l) => l.trim() !== '')?.trim() ?? '(no output)';
  return { kind: 'text', text: first.isError ? `The tool did not run: ${line}` : `The tool finished: ${line}` };
}

/** Picks the reply for one request. Side requests never touch the queue. */
export function chooseGeminiReply(kind: GeminiRequestKind, summary: GeminiRequestSummary, queue: GeminiScriptItem[]): GeminiScriptItem {
  if (kind === 'router') return { kind: 'text', text: ROUTER_REPLY };
  if (kind === 'side') return { kind: 'text', text: summary.jsonKeys.length > 0 ? '{}' : 'OK.' };
  const queued = queue.shift();
  if (queued) return queued;
  if (summary.functionResponses.length > 0) return geminiReplyAfterTools(summary);
  return geminiReplyForPrompt(summary.lastPromptText ?? '');
}
