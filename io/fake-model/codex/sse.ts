/**
 * The OpenAI Responses streaming shape Codex reads: `response.created`, output items (a message
 * with its text deltas, or a `function_call`), then `response.completed` with usage. Codex
 * treats a stream that ends without `response.completed` as a dropped connection and retries.
 */
import type { ServerResponse } from 'node:http';
import type { CodexScriptItem } from './script.ts';
import { pause } from '../http.ts';

export interface ReplyIds {
  responseId: string;
  messageId: string;
  callId: string;
}

function event(res: ServerResponse, type: string, data: Record<string, unknown>): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

function message(res: ServerResponse, index: number, id: string, text: string): void {
  event(res, 'response.output_item.added', { output_index: index, item: { type: 'message', id, role: 'assistant', content: [] } });
  event(res, 'response.output_text.delta', { item_id: id, output_index: index, content_index: 0, delta: text });
  event(res, 'response.output_item.done', {
    output_index: index,
    item: { type: 'message', id, role: 'assistant', content: [{ type: 'output_text', text }] },
  });
}

/** What one reply reports it used: `input` counts the cached part too (the Responses API's rule). */
export interface CodexServedUsage {
  input: number;
  cached: number;
  output: number;
}

export const DEFAULT_CODEX_USAGE: CodexServedUsage = { input: 100, cached: 0, output: 10 };

function usageBlock(u: CodexServedUsage) {
  return { input_tokens: u.input, input_tokens_details: { cached_tokens: u.cached }, output_tokens: u.output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: u.input + u.output };
}

/** The arguments Codex's exec_command tool takes for one scripted shell call. */
export function shellArguments(item: Extract<CodexScriptItem, { kind: 'shell' }>): Record<string, unknown> {
  if (item.escalate === undefined) return { cmd: item.cmd };
  return { cmd: item.cmd, sandbox_permissions: 'require_escalated', justification: item.escalate };
}

/** Writes one reply; a `hang` leaves the stream open (the caller ends it on close). */
export async function streamCodexReply(res: ServerResponse, reply: Exclude<CodexScriptItem, { kind: 'error' }>, ids: ReplyIds, usage: CodexServedUsage = DEFAULT_CODEX_USAGE): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  event(res, 'response.created', { response: { id: ids.responseId } });
  if (reply.kind === 'text' && reply.delayMs) await pause(res, reply.delayMs);
  if (res.destroyed || res.writableEnded) return;
  let index = 0;
  if (reply.text !== undefined && reply.text !== '') message(res, index++, ids.messageId, reply.text);
  if (reply.kind === 'hang') return;
  if (reply.kind === 'shell' || reply.kind === 'call') {
    const [name, args] = reply.kind === 'shell' ? ['exec_command', shellArguments(reply)] : [reply.name, reply.args];
    event(res, 'response.output_item.done', {
      output_index: index,
      item: { type: 'function_call', id: `fc_${ids.callId}`, call_id: ids.callId, name, arguments: JSON.stringify(args) },
    });
  }
  event(res, 'response.completed', { response: { id: ids.responseId, usage: usageBlock(usage) } });
  res.end();
}
