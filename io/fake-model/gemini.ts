/**
 * A fake Gemini API on 127.0.0.1 for running the real Gemini CLI, in tests and in
 * `hand doctor --calibrate`. Gemini CLI 0.61.0 takes it with GEMINI_API_KEY (any value) and
 * GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:<port> (plain http is allowed for localhost only).
 * Scripted by trigger words in the prompt (MODE:report <path>, MODE:ask, MODE:bash[[cmd]],
 * MODE:slow, MODE:hang) and by a queue the caller fills; records every request so a caller can
 * assert on what Gemini CLI sent.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { classifyGeminiRequest, summariseGeminiRequest, type GeminiRequestKind, type GeminiRequestSummary } from './gemini/request-summary.ts';
import { chooseGeminiReply, type GeminiScriptItem } from './gemini/script.ts';
import { GEMINI_USAGE, jsonGeminiReply, streamGeminiReply } from './gemini/sse.ts';
import { publicHeaders, readBody, serveOnLoopback, type ScriptedFake, scriptedFake } from './http.ts';

export type { GeminiScriptItem } from './gemini/script.ts';
export type { GeminiRequestKind, GeminiRequestSummary } from './gemini/request-summary.ts';
export { fakeGeminiReport, GEMINI_ASK_INPUT, DEFAULT_SHELL_COMMAND } from './gemini/script.ts';

export interface GeminiRequestRecord {
  seq: number;
  method: string;
  /** Path without the query string (`/v1beta/models/<model>:streamGenerateContent`). */
  path: string;
  query: string;
  /** Headers with the key (`x-goog-api-key`, `authorization`) removed. */
  headers: Record<string, string>;
  /** Which credential came with the request (its value is never kept). */
  auth: 'api-key' | 'bearer' | 'none';
  kind?: GeminiRequestKind;
  summary?: GeminiRequestSummary;
  reply?: GeminiScriptItem;
  /** The request body as sent, so a test can prove what never left the machine. */
  body: string;
  /** The usage a reply served whole reported (a hang or an error has none). */
  served?: { input: number; output: number };
}

export type FakeGemini = ScriptedFake<GeminiScriptItem, GeminiRequestRecord>;

/** The Google API error shape: `{error: {code, message, status}}`. */
function sendError(res: ServerResponse, code: number, message: string): void {
  const status = code === 429 ? 'RESOURCE_EXHAUSTED' : code === 404 ? 'NOT_FOUND' : code === 400 ? 'INVALID_ARGUMENT' : 'INTERNAL';
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code, message, status } }));
}

const GENERATE = /^\/v1(?:beta|alpha)?\/models\/[^/:]+:(?:streamGenerateContent|generateContent)$/;
const COUNT_TOKENS = /^\/v1(?:beta|alpha)?\/models\/[^/:]+:countTokens$/;

export interface FakeGeminiOptions {
  /** Answers an agent-loop request before the queue does (null: the queue and trigger words decide). */
  respond?: (summary: GeminiRequestSummary, seq: number) => GeminiScriptItem | null;
}

export async function startFakeGemini(opts: FakeGeminiOptions = {}): Promise<FakeGemini> {
  const received: GeminiRequestRecord[] = [];
  const queued: GeminiScriptItem[] = [];
  const listeners = new Set<(r: GeminiRequestRecord) => void>();
  let seq = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [path = '/', query = ''] = (req.url ?? '/').split('?', 2);
    const method = req.method ?? 'GET';
    const auth = req.headers.authorization ? 'bearer' : req.headers['x-goog-api-key'] !== undefined ? 'api-key' : 'none';
    const body = await readBody(req);
    const record: GeminiRequestRecord = { seq: ++seq, method, path, query, headers: publicHeaders(req, ['authorization', 'x-goog-api-key']), auth, body };
    received.push(record);
    const announce = () => listeners.forEach((l) => l(record));

    if (method === 'POST' && COUNT_TOKENS.test(path)) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ totalTokens: 42 }));
      return announce();
    }
    if (method !== 'POST' || !GENERATE.test(path)) {
      sendError(res, 404, `fake: no ${method} ${path}`);
      return announce();
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      sendError(res, 400, 'fake: body is not JSON');
      return announce();
    }
    const summary = summariseGeminiRequest(path, parsed);
    const kind = classifyGeminiRequest(summary);
    const reply = (kind === 'main' ? opts.respond?.(summary, record.seq) : null) ?? chooseGeminiReply(kind, summary, queued);
    Object.assign(record, { kind, summary, reply });
    announce();
    if (reply.kind === 'error') return sendError(res, reply.status, reply.message);
    const served = { input: GEMINI_USAGE.promptTokenCount, output: GEMINI_USAGE.candidatesTokenCount };
    if (!summary.stream) {
      jsonGeminiReply(res, reply, summary.model);
      record.served = served;
      return;
    }
    server.track(res);
    await streamGeminiReply(res, reply, summary.model);
    if (reply.kind !== 'hang') record.served = served;
  }

  const server = await serveOnLoopback(handle, (err) => ({ error: { code: 500, message: `fake: ${String(err)}`, status: 'INTERNAL' } }));
  return scriptedFake(server, received, queued, listeners);
}
