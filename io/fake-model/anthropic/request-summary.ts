/**
 * What the fake model server keeps of each Messages API request: enough to pick a scripted
 * reply and for tests to assert on what Claude Code sent, without storing whole prompts.
 */

export interface ToolResultSummary {
  toolUseId: string;
  /** The result's text (text blocks joined with newlines). */
  content: string;
  isError: boolean;
}

export interface RequestSummary {
  model: string | null;
  stream: boolean;
  /** Names of the tools offered (empty for side requests such as a title). */
  tools: string[];
  /** The system prompt's text (blocks joined), kept to recognise side requests. */
  systemText: string;
  /**
   * The prompt: the last text block of the last user message that is not a
   * `<system-reminder>`. Claude Code prefixes reminders and merges a failed turn's prompt into
   * the next message as an earlier block, so only the last block is the person's words.
   */
  lastPromptText: string | null;
  /** Every text block of the last user message, in order (reminders included). */
  lastUserTexts: string[];
  /**
   * Text of `role: "system"` messages after the last assistant message: Claude Code 2.1.332 sends
   * a background event (a Monitor line) that arrived during a turn this way, after the tool result.
   */
  systemTexts: string[];
  /** tool_result blocks of the last user message: non-empty means "continue after a tool". */
  toolResults: ToolResultSummary[];
  messageCount: number;
}

/**
 * main: the agent loop. suggestion: the prompt-suggestion fork. title: a session-title request.
 * side: any other request without tools (never consumes a scripted reply either). compact: the
 * summary request of `/compact` (takes from the queue, so a scenario can hold a compaction open).
 */
export type RequestKind = 'main' | 'suggestion' | 'title' | 'side' | 'compact';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Content is either a string or a list of blocks; a string counts as one text block. */
function blocksOf(content: unknown): Json[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

function textOf(content: unknown): string {
  return blocksOf(content)
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
}

export function summariseRequest(body: unknown): RequestSummary {
  const b = isObject(body) ? body : {};
  const messages = Array.isArray(b.messages) ? b.messages.filter(isObject) : [];
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const blocks = lastUser ? blocksOf(lastUser.content) : [];
  const lastUserTexts = blocks.filter((x) => x.type === 'text' && typeof x.text === 'string').map((x) => x.text as string);
  const prompts = lastUserTexts.filter((t) => !t.trimStart().startsWith('<system-reminder>'));
  const toolResults = blocks
    .filter((x) => x.type === 'tool_result')
    .map((x) => ({
      toolUseId: typeof x.tool_use_id === 'string' ? x.tool_use_id : '',
      content: textOf(x.content),
      isError: x.is_error === true,
    }));
  const tools = Array.isArray(b.tools)
    ? b.tools.filter(isObject).map((t) => (typeof t.name === 'string' ? t.name : String(t.type ?? '?')))
    : [];
  const lastAssistant = messages.map((m) => m.role).lastIndexOf('assistant');
  const systemTexts = messages.slice(lastAssistant + 1).filter((m) => m.role === 'system').map((m) => textOf(m.content)).filter((t) => t !== '');
  return {
    model: typeof b.model === 'string' ? b.model : null,
    stream: b.stream === true,
    tools,
    systemText: typeof b.system === 'string' ? b.system : textOf(b.system),
    lastPromptText: prompts.at(-1) ?? lastUserTexts.at(-1) ?? null,
    lastUserTexts,
    systemTexts,
    toolResults,
    messageCount: messages.length,
  };
}

export const SUGGESTION_MARKER = '[SUGGESTION MODE:';
/** The instruction Claude Code sends to have the conversation summarised (`/compact`). */
const COMPACT_MARKER = /Your task is to create a detailed summary of (?:the|this) conversation/;

export function classifyRequest(s: RequestSummary): RequestKind {
  if (s.lastUserTexts.some((t) => t.includes(SUGGESTION_MARKER))) return 'suggestion';
  if (s.lastUserTexts.some((t) => COMPACT_MARKER.test(t))) return 'compact';
  // 2.0-era releases warm the cache with a one-word request that offers tools, at start-up or
  // later: answered like any side request, so it never takes a reply scripted for a turn.
  if (s.lastPromptText?.trim() === 'Warmup') return 'side';
  // The agent loop always offers tools; a request without any is a side question.
  if (s.tools.length === 0) return /\btitle\b/i.test(s.systemText) ? 'title' : 'side';
  return 'main';
}
