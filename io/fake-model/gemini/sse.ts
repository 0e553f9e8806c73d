/**
 * Writes one scripted reply in the `streamGenerateContent?alt=sse` shape (one
 * GenerateContentResponse per `data:` line; the last carries finishReason and usage), or as one
 * JSON GenerateContentResponse for `generateContent`.
 */
import type { ServerResponse } from 'node:http';
import type { GeminiScriptItem } from './script.ts';
import { pause } from '../http.ts';

/** What each reply reports it used (the last chunk's usageMetadata). */
export const GEMINI_USAGE = { promptTokenCount: 42, candidatesTokenCount: 8, totalTokenCount: 50 };
const USAGE = GEMINI_USAGE;

type Part = Record<string, unknown>;

function response(parts: Part[], model: string, last: boolean): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
    ...(last ? { usageMetadata: USAGE } : {}),
    modelVersion: model,
  };
}

function partsOf(item: GeminiScriptItem): Part[] {
  const parts: Part[] = [];
  if (item.text) parts.push({ text: item.text });
  if (item.kind === 'call') parts.push({ functionCall: { name: item.name, args: item.args } });
  return parts;
}

function words(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [text];
}

function send(res: ServerResponse, data: Record<string, unknown>): void {
  if (!res.destroyed && !res.writableEnded) res.write(`data: ${JSON.stringify(data)}\r\n\r\n`);
}

export function jsonGeminiReply(res: ServerResponse, item: GeminiScriptItem, model: string): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(response(partsOf(item), model, true)));
}

/** Streams `item`; resolves when the stream has ended (a hang: when the socket closes). */
export async function streamGeminiReply(res: ServerResponse, item: GeminiScriptItem, model: string): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  if (item.kind === 'hang') {
    if (item.text) send(res, response([{ text: item.text }], model, false));
    await new Promise<void>((resolve) => (res.destroyed ? resolve() : res.once('close', () => resolve())));
    return;
  }
  if (item.kind === 'text' && item.wordDelayMs) {
    const all = words(item.text);
    for (let i = 0; i < all.length; i++) {
      send(res, response([{ text: all[i]! }], model, i === all.length - 1));
      if (i < all.length - 1) await pause(res, item.wordDelayMs);
    }
    res.end();
    return;
  }
  send(res, response(partsOf(item), model, true));
  res.end();
}
