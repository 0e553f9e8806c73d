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
import { FakeLog, keyedRequest, readBody, serveOnLoopback, type KeyedRequest, type ScriptedFake, scriptedFake } from './http.ts';

export type { GeminiScriptItem } from './gemini/script.ts';
export type { GeminiRequestKind, GeminiRequestSummary } from './gemini/request-summary.ts';
export { fakeGeminiReport, GEMINI_ASK_INPUT, DEFAULT_SHELL_COMMAND } from './gemini/script.ts';

/** A request to the fake (path `/v1beta/models/<model>:streamGenerateContent`; key header `x-goog-api-key`). */
export interface GeminiRequestRecord extends KeyedRequest {
  seq: number;
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
  const log = new FakeLog<GeminiScriptItem, GeminiRequestRecord>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const record: GeminiRequestRecord = { seq: log.nextSeq(), ...keyedRequest(req, 'x-goog-api-key'), body };
    const { method, path } = record;
    const announce = log.keep(record);

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
    const reply = (kind === 'main' ? opts.respond?.(summary, record.seq) : null) ?? chooseGeminiReply(kind, summary, log.queued);
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
  return scriptedFake(server, log);
}
