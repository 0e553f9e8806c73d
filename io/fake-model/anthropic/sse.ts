/**
 * Writes one scripted reply as a Messages API SSE stream (or as one JSON message when the
 * client did not ask for a stream). The event order is the minimum Claude Code accepts:
 * message_start, per block start / deltas / stop, message_delta with the stop reason, message_stop.
 */
import type { ServerResponse } from 'node:http';
import type { ScriptItem } from './script.ts';
import { pause } from '../http.ts';

export interface ReplyIds {
  messageId: string;
  toolUseId: string;
}

/** What one reply reports it used (the Messages API's usage fields). */
export interface ServedUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export const DEFAULT_USAGE: ServedUsage = { input: 42, output: 12, cacheRead: 0, cacheWrite: 0 };

// Small on purpose (DEFAULT_USAGE): the prompt-suggestion code skips generation once input+output > 10 000.

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [''];
}

/** Words with their following space kept, so the deltas concatenate back to the text. */
function words(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [text];
}

/** Keeps a stream open: only the client (an interrupt) or close() ends it. */
function closed(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => (res.destroyed ? resolve() : res.once('close', () => resolve())));
}

function send(res: ServerResponse, event: string, data: Record<string, unknown>): void {
  if (res.destroyed || res.writableEnded) return;
  res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
}

/** Streams `item`; resolves when the stream has ended (a hang resolves only when the socket closes), true when it was served whole. */
export async function streamReply(res: ServerResponse, item: ScriptItem, model: string, ids: ReplyIds, usage: ServedUsage = DEFAULT_USAGE): Promise<boolean> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_${ids.messageId}` });
  send(res, 'message_start', {
    message: {
      id: ids.messageId, type: 'message', role: 'assistant', model, content: [],
      stop_reason: null, stop_sequence: null,
      usage: { input_tokens: usage.input, cache_read_input_tokens: usage.cacheRead, cache_creation_input_tokens: usage.cacheWrite, output_tokens: 1 },
    },
  });
  let index = 0;
  const text = item.text ?? '';
  if (item.kind === 'hang' && text === '') {
    // Nothing after message_start: to Claude Code this is a turn with no reply text yet.
    await closed(res);
    return false;
  }
  if (text !== '' || item.kind !== 'tool_use') {
    send(res, 'content_block_start', { index, content_block: { type: 'text', text: '' } });
    const delay = item.kind === 'text' ? item.wordDelayMs ?? 0 : 0;
    const parts = delay > 0 ? words(text) : [text];
    for (const [i, part] of parts.entries()) {
      if (i > 0) await pause(res, delay);
      send(res, 'content_block_delta', { index, delta: { type: 'text_delta', text: part } });
    }
    if (item.kind === 'hang') {
      await closed(res);
      return false;
    }
    send(res, 'content_block_stop', { index });
    index++;
  }
  if (item.kind === 'tool_use') {
    send(res, 'content_block_start', { index, content_block: { type: 'tool_use', id: ids.toolUseId, name: item.name, input: {} } });
    for (const part of chunks(JSON.stringify(item.input), 40)) {
      send(res, 'content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } });
    }
    send(res, 'content_block_stop', { index });
  }
  const stopReason = item.kind === 'tool_use' ? 'tool_use' : 'end_turn';
  const whole = !res.destroyed && !res.writableEnded;
  send(res, 'message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output } });
  send(res, 'message_stop', {});
  if (!res.destroyed) res.end();
  return whole;
}

/** The same reply as a single JSON message, for `stream: false` requests. A hang is answered as text. */
export function jsonReply(res: ServerResponse, item: ScriptItem, model: string, ids: ReplyIds, usage: ServedUsage = DEFAULT_USAGE): void {
  const content: Record<string, unknown>[] = [];
  if (item.text) content.push({ type: 'text', text: item.text });
  if (item.kind === 'tool_use') content.push({ type: 'tool_use', id: ids.toolUseId, name: item.name, input: item.input });
  const body = {
    id: ids.messageId, type: 'message', role: 'assistant', model, content,
    stop_reason: item.kind === 'tool_use' ? 'tool_use' : 'end_turn', stop_sequence: null,
    usage: { input_tokens: usage.input, cache_read_input_tokens: usage.cacheRead, cache_creation_input_tokens: usage.cacheWrite, output_tokens: usage.output },
  };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
