/**
 * How the fake model decides what to answer: an explicit queue first, then the end of a tool
 * round-trip, then trigger words in the prompt. Pure: no sockets, no timers.
 */
import type { RequestKind, RequestSummary } from './request-summary.ts';
import { parkReply } from './park-script.ts';
import { FAKE_QUESTION } from '../../../contract/fake-question.ts';

/** One scripted model reply (one HTTP response). */
export type ScriptItem =
  | {
      kind: 'text';
      text: string;
      /** Stream one word every this many ms (MODE:slow); 0 or absent = all at once. */
      wordDelayMs?: number;
    }
  | {
      kind: 'tool_use';
      name: string;
      input: Record<string, unknown>;
      /** Text shown before the tool call ("● I will run a command."). */
      text?: string;
      /**
       * Marks the call's id (`toolu_fake_<tag>_<seq>`) so the fake knows what the result it gets
       * back answers: a `brief` Read result is acted on like a prompt (see replyAfterTools).
       */
      tag?: 'brief';
      /**
       * Use the first of these names the request offers instead of `name` (the sub-agent tool is
       * `Task` in older releases and `Agent` in newer ones).
       */
      nameFrom?: readonly string[];
    }
  | {
      /**
       * An HTTP error instead of a message (issue 21: retries, a turn that ended in an API error,
       * a usage limit). `headers` go out as sent (retry-after, anthropic-ratelimit-unified-*).
       */
      kind: 'error';
      status: number;
      errorType: string;
      message: string;
      headers?: Record<string, string>;
      text?: undefined;
    }
  | {
      /**
       * Opens the reply and then keeps the stream open until the client or close() ends it.
       * With text, the text is streamed first (an interrupt then lands mid-reply).
       */
      kind: 'hang';
      text?: string;
    };

export interface ScriptOptions {
  /** Prompt-suggestion text; null = answer with no suggestion. */
  suggestion: string | null;
  /** Delay between words of MODE:slow. */
  slowWordDelayMs: number;
  /** How many words MODE:slow streams. */
  slowWordCount: number;
}

export const DEFAULT_BASH_COMMAND = 'touch fake-artifact.txt && echo created fake-artifact.txt';

/** The report MODE:report writes; exported so tests can compare the file with what was sent. */
export function fakeReportContent(path: string): string {
  return `# Report\n\nWritten by the fake model to ${path}.\n\nStatus: done. No open questions.\n`;
}

export const ASK_INPUT = {
  questions: [
    {
      question: FAKE_QUESTION.question,
      header: FAKE_QUESTION.header, // AskUserQuestion allows at most 12 characters here
      multiSelect: false,
      options: FAKE_QUESTION.options,
    },
  ],
};

/** A trigger argument may sit at the end of a sentence or inside quotes. */
function cleanPath(raw: string): string {
  return raw.replace(/^["'`(<]+/, '').replace(/["'`)>,;:.]+$/, '');
}

function slowText(opts: ScriptOptions): string {
  const words = ['This', 'reply', 'is', 'streamed', 'slowly,', 'word', 'by', 'word,', 'so', 'the', 'spinner', 'shows.'];
  const out: string[] = [];
  for (let i = 0; i < opts.slowWordCount; i++) out.push(words[i % words.length]!);
  return out.join(' ');
}

/**
 * The first prompt `hand dispatch` types (daemon/fleet/dispatch.ts firstPrompt) names the brief
 * file: the fake reads it with the Read tool, as a model would, and the trigger words in the
 * brief then decide what it does (replyAfterTools).
 */
const BRIEF_PROMPT = /Read the brief at (\S+) in full/;

/** The reply chosen by trigger words in a prompt (first `MODE:` wins); plain text otherwise. */
export function replyForPrompt(prompt: string, opts: ScriptOptions): ScriptItem {
  const brief = BRIEF_PROMPT.exec(prompt);
  if (brief && !/MODE:[a-z]/.test(prompt)) {
    return { kind: 'tool_use', name: 'Read', tag: 'brief', text: 'I will read the brief.', input: { file_path: cleanPath(brief[1]!) } };
  }
  const park = parkReply(prompt);
  if (park) return park;
  const report = /MODE:report\s+(\S+)/.exec(prompt);
  const bashCustom = /MODE:bash\[\[(.+?)\]\]/.exec(prompt);
  const mode = /MODE:([a-z]+)/.exec(prompt)?.[1];
  if (mode === 'report' && report) {
    const path = cleanPath(report[1]!);
    return {
      kind: 'tool_use',
      name: 'Write',
      text: 'I will write the report.',
      input: { file_path: path, content: fakeReportContent(path) },
    };
  }
  if (mode === 'ask') return { kind: 'tool_use', name: 'AskUserQuestion', text: 'I have a question.', input: ASK_INPUT };
  if (mode === 'bash') {
    const command = bashCustom ? bashCustom[1]! : DEFAULT_BASH_COMMAND;
    return {
      kind: 'tool_use',
      name: 'Bash',
      text: 'I will run a command.',
      input: { command, description: 'Create a fake artifact file' },
    };
  }
  // A command left running in the background (issue 43): `MODE:background[[sleep 12]]`.
  if (mode === 'background') {
    const command = /MODE:background\[\[(.+?)\]\]/.exec(prompt)?.[1] ?? 'sleep 10';
    return { kind: 'tool_use', name: 'Bash', text: 'I will start it in the background.', input: { command, description: 'Run it in the background', run_in_background: true } };
  }
  if (mode === 'slow') return { kind: 'text', text: slowText(opts), wordDelayMs: opts.slowWordDelayMs };
  // No text at all: an interrupt then puts the prompt back in the box (claude-code.md §6.7).
  if (mode === 'hang') return { kind: 'hang' };
  return { kind: 'text', text: 'Done. This is the fake model.' };
}

/** The text that closes a turn after Claude Code sent back tool results. */
export function replyAfterTools(summary: RequestSummary, opts: ScriptOptions): ScriptItem {
  const first = summary.toolResults[0]!;
  // The brief's own words are the task: its trigger (MODE:report <path>, MODE:ask …) applies.
  if (first.toolUseId.startsWith('toolu_fake_brief_') && !first.isError && /MODE:[a-z]/.test(first.content)) {
    return replyForPrompt(first.content, opts);
  }
  const line = first.content.split('\n').find((l) => l.trim() !== '')?.trim() ?? '(no output)';
  const text = first.isError ? `The tool did not run: ${line}` : `The tool finished: ${line}`;
  return { kind: 'text', text };
}

/** A text block of the person's own (not a reminder, not Claude Code's interrupt note). */
function personSpoke(summary: RequestSummary): boolean {
  return summary.lastUserTexts.some((t) => {
    const x = t.trimStart();
    return x !== '' && !x.startsWith('<system-reminder>') && !x.startsWith('[Request interrupted');
  });
}

/**
 * Picks the reply for one request. Side requests (suggestion, title, others) never touch the
 * queue: handing them a scripted reply would steal it from the agent loop.
 */
export function chooseReply(kind: RequestKind, summary: RequestSummary, queue: ScriptItem[], opts: ScriptOptions): ScriptItem {
  if (kind === 'suggestion') return { kind: 'text', text: opts.suggestion ?? '' };
  if (kind === 'title') return { kind: 'text', text: '{"isNewTopic": false, "title": "Fake session"}' };
  if (kind === 'side') return { kind: 'text', text: 'OK.' };
  // A compaction request takes from the queue like the agent loop (a scenario holds it open).
  const queued = queue.shift();
  if (queued?.kind === 'tool_use' && queued.nameFrom) {
    const offered = queued.nameFrom.find((n) => summary.tools.includes(n));
    return { ...queued, name: offered ?? queued.name };
  }
  if (queued) return queued;
  // /compact with nothing scripted: a short summary, so the compaction finishes.
  if (kind === 'compact') return { kind: 'text', text: '<summary>The person asked for a greeting; it was given.</summary>' };
  // After an interrupt Claude Code sends the unanswered tool result and the person's next prompt
  // in one message: the prompt is what the model answers then, not the old tool round-trip.
  if (summary.toolResults.length > 0 && !personSpoke(summary)) return replyAfterTools(summary, opts);
  return replyForPrompt(summary.lastPromptText ?? '', opts);
}
