/**
 * What a Responses API request carries that the fake and the tests look at: the model, whether
 * it is the agent loop (it offers tools) or a side request (the title, no tools), the last user
 * text and the outputs of the tool calls it returns.
 */
export interface ToolOutputSummary {
  callId: string;
  output: string;
}

export interface RequestSummary {
  model: string | null;
  stream: boolean;
  /** No tools offered: Codex's title request, never the turn itself. */
  side: boolean;
  toolNames: string[];
  /** Text of the last `user` message that is not Codex's own context block. */
  lastUserText: string | null;
  lastItem: 'user' | 'tool-output' | 'other' | 'none';
  toolOutputs: ToolOutputSummary[];
}

type Item = Record<string, unknown>;

function isRecord(v: unknown): v is Item {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function textOf(item: Item): string {
  const content = item.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c) => (isRecord(c) && typeof c.text === 'string' ? c.text : '')).join('');
}

/** Codex sends its environment and instructions as user messages wrapped in one XML-ish tag. */
function isContextBlock(text: string): boolean {
  return /^\s*<(environment_context|user_instructions|permissions|turn_aborted)[\s>]/.test(text);
}

export function summariseCodexRequest(body: unknown): RequestSummary {
  const b = isRecord(body) ? body : {};
  const input = Array.isArray(b.input) ? b.input.filter(isRecord) : [];
  const tools = Array.isArray(b.tools) ? b.tools.filter(isRecord) : [];
  let lastUserText: string | null = null;
  const toolOutputs: ToolOutputSummary[] = [];
  for (const item of input) {
    if (item.type === 'message' && item.role === 'user') {
      const text = textOf(item);
      if (!isContextBlock(text)) lastUserText = text;
    } else if (item.type === 'function_call_output') {
      const output = typeof item.output === 'string' ? item.output : JSON.stringify(item.output);
      toolOutputs.push({ callId: String(item.call_id ?? ''), output });
    }
  }
  const last = input.at(-1);
  const lastItem = last === undefined ? 'none' : last.type === 'function_call_output' ? 'tool-output' : last.type === 'message' && last.role === 'user' ? 'user' : 'other';
  return {
    model: typeof b.model === 'string' ? b.model : null,
    stream: b.stream === true,
    side: tools.length === 0,
    toolNames: tools.map((t) => String(t.name ?? t.type ?? '')),
    lastUserText,
    lastItem,
    toolOutputs,
  };
}
