/**
 * What the fake Responses API answers: the test's queue first, then the end of a tool round
 * (a `function_call_output` came back and nothing is queued: the turn ends with "Done."), then
 * trigger words in the prompt. Pure: no sockets, no timers.
 */
import type { RequestSummary } from './request-summary.ts';

/** One scripted model reply (one HTTP response). */
export type CodexScriptItem =
  /** `delayMs`: the response opens and stays quiet this long before its text (a slow model: Codex shows its running turn). */
  | { kind: 'text'; text: string; delayMs?: number }
  | {
      /**
       * A call of Codex's `exec_command` tool. With `escalate` (the approval question) the call
       * asks to run outside the sandbox, which Codex puts to the person under `on-request`.
       */
      kind: 'shell';
      cmd: string;
      escalate?: string;
      /** Text streamed before the call (Codex shows it as the turn's preamble). */
      text?: string;
    }
  /** A call of any other Codex tool by name (`request_user_input`, …) with its JSON arguments. */
  | { kind: 'call'; name: string; args: Record<string, unknown>; text?: string }
  | { kind: 'error'; status: number; message: string }
  /** Opens the stream (text first, if any) and keeps it open until the client or close() ends it. */
  | { kind: 'hang'; text?: string };

/** The title Codex asks for on a side request (it shows it in the footer). */
export const FAKE_TITLE = 'Fake task';

/** `MODE:report <path>`: writes a report with one shell call (the worker's report convention). */
const REPORT = /MODE:report\s+(\S+)/;
const SHELL = /MODE:shell\s+(.+)$/m;

function quoteForShell(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The shell command that writes `content` to `path` (what MODE:report runs). */
export function writeFileCommand(path: string, content: string): string {
  return `printf '%s\\n' ${quoteForShell(content)} > ${quoteForShell(path)}`;
}

export function fakeCodexReport(prompt: string): string {
  return `# Report\n\nDone: ${prompt.slice(0, 60).replace(/\s+/g, ' ')}\n`;
}

/**
 * Codex's exec_command answers after its yield time (10 s by default) with the command still
 * running in the background ("Process running with session ID 3"). A model waits for it before
 * its next step, and so does the fake: on a busy machine a probe of a few seconds outlived the
 * yield and the turn ended before it had (its output read half-written).
 */
const RUNNING = /Process running with session ID (\d+)/;
/** How long one wait for a running command lasts (Codex's most for a yield). */
export const WAIT_FOR_COMMAND_MS = 30_000;

/** The session of the command the last tool output left running, or null. */
export function runningSessionOf(summary: RequestSummary): number | null {
  if (summary.lastItem !== 'tool-output') return null;
  const m = RUNNING.exec(summary.toolOutputs.at(-1)?.output ?? '');
  return m ? Number(m[1]) : null;
}

export function chooseCodexReply(summary: RequestSummary, queued: CodexScriptItem[]): CodexScriptItem {
  // A side request (the task title, offered no tools) never takes a reply the test queued.
  if (summary.side) return { kind: 'text', text: JSON.stringify({ title: FAKE_TITLE }) };
  const running = runningSessionOf(summary);
  if (running !== null) return { kind: 'call', name: 'write_stdin', args: { session_id: running, chars: '', yield_time_ms: WAIT_FOR_COMMAND_MS } };
  const next = queued.shift();
  if (next !== undefined) return next;
  if (summary.lastItem === 'tool-output') return { kind: 'text', text: 'Done.' };
  const prompt = summary.lastUserText ?? '';
  const report = REPORT.exec(prompt);
  if (report) return { kind: 'shell', cmd: writeFileCommand(report[1]!, fakeCodexReport(prompt)), text: 'Writing the report.' };
  const shell = SHELL.exec(prompt);
  if (shell) return { kind: 'shell', cmd: shell[1]!.trim() };
  return { kind: 'text', text: `Fake reply to: ${prompt.slice(0, 60)}` };
}
