/**
 * A fake Anthropic Messages API on 127.0.0.1 for running the real Claude Code binary, in tests
 * and in `hand doctor --calibrate` (reference: claude-code.md §3). Scripted by trigger words in
 * the prompt (MODE:report <path>, MODE:ask, MODE:bash, MODE:background[[cmd]], MODE:slow,
 * MODE:hang) and by a queue the caller fills; records every request so a caller can assert on
 * what Claude Code sent. OpenCode speaks the same API with tools of its own names: a call is said
 * in the names the request offers (anthropic/tool-dialect.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeLog, keyedRequest, readBody, sendJson, serveOnLoopback, type KeyedRequest, type ScriptedFake, scriptedFake } from './http.ts';
import { classifyRequest, summariseRequest, type RequestKind, type RequestSummary } from './anthropic/request-summary.ts';
import { chooseReply, type ScriptItem, type ScriptOptions } from './anthropic/script.ts';
import { DEFAULT_USAGE, jsonReply, streamReply, type ServedUsage } from './anthropic/sse.ts';
import { inOfferedDialect, OPENCODE_TITLE_PROMPT } from './anthropic/tool-dialect.ts';

export type { ServedUsage } from './anthropic/sse.ts';

export type { ScriptItem } from './anthropic/script.ts';
export type { RequestKind, RequestSummary, ToolResultSummary } from './anthropic/request-summary.ts';
export { fakeReportContent, ASK_INPUT, DEFAULT_BASH_COMMAND } from './anthropic/script.ts';

/** A request to the fake (path `/v1/messages`; key header `x-api-key`). */
export interface RequestRecord extends KeyedRequest {
  seq: number;
  /** Set for POST /v1/messages only. */
  kind?: RequestKind;
  summary?: RequestSummary;
  /** What the fake answered (POST /v1/messages only). */
  reply?: ScriptItem;
  /** The request body as sent, only with `keepRawBodies` (to prove what never left the machine). */
  raw?: string;
  /** The raw request body, so a test can prove a secret never left the machine in any request. */
  body?: string;
  /** The usage the fake reported in a reply it served whole (a hang, an error or a cut stream has none): what it billed. */
  served?: ServedUsage;
}

/**
 * The id the fake gave the tool call it answered `record` with (`toolu_fake_<tag>_<seq>`), or
 * null when it did not answer with a tool call: a test finds the result of one exact call by it.
 */
export function toolUseIdOf(record: Pick<RequestRecord, 'seq' | 'reply'>): string | null {
  if (record.reply?.kind !== 'tool_use') return null;
  const tag = record.reply.tag ? `${record.reply.tag}_` : '';
  return `toolu_fake_${tag}${record.seq}`;
}

export interface FakeAnthropicOptions extends Partial<ScriptOptions> {
  /** Keep each request's whole body in `raw` (tests that assert on what was sent, or not sent). */
  keepRawBodies?: boolean;
  /**
   * Answers an agent-loop request before the queue does (null: the queue and trigger words
   * decide). For a conversation whose order is not fixed, such as a Hand woken by notifications
   * while the person types: the reply follows what the request carries, not its position.
   */
  respond?: (summary: RequestSummary, seq: number) => ScriptItem | null;
  /** The usage each reply reports (default 42 in, 12 out): a test of token counts gives each reply its own. */
  usageOf?: (seq: number) => ServedUsage;
}

export type FakeAnthropic = ScriptedFake<ScriptItem, RequestRecord>;

function notFound(res: ServerResponse, what: string): void {
  sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `fake: no ${what}` } });
}

const MODELS = {
  data: [{ type: 'model', id: 'claude-opus-5-5', display_name: 'Fake Opus', created_at: '2026-01-01T00:00:00Z' }],
  has_more: false,
  first_id: 'claude-opus-5-5',
  last_id: 'claude-opus-5-5',
};

export async function startFakeAnthropic(opts: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const script: ScriptOptions = {
    suggestion: opts.suggestion === undefined ? 'run the tests' : opts.suggestion,
    slowWordDelayMs: opts.slowWordDelayMs ?? 500,
    slowWordCount: opts.slowWordCount ?? 8,
  };
  const log = new FakeLog<ScriptItem, RequestRecord>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const record: RequestRecord = { seq: log.nextSeq(), ...keyedRequest(req, 'x-api-key') };
    const { method, path } = record;
    const raw = await readBody(req);
    if (opts.keepRawBodies) record.raw = raw;
    record.body = raw;
    const announce = log.keep(record);

    if (method === 'HEAD') { res.writeHead(200).end(); return announce(); }
    if (method === 'GET' && path === '/v1/models') { sendJson(res, 200, MODELS); return announce(); }
    if (method === 'POST' && path === '/v1/messages/count_tokens') { sendJson(res, 200, { input_tokens: 42 }); return announce(); }
    if (method !== 'POST' || path !== '/v1/messages') { notFound(res, `${method} ${path}`); return announce(); }

    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      sendJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'fake: body is not JSON' } });
      return announce();
    }
    const summary = summariseRequest(body);
    const kind = classifyRequest(summary);
    // OpenCode shows a title reply word for word: the title, not Claude Code's JSON of one.
    const titled: ScriptItem | null = kind === 'title' && OPENCODE_TITLE_PROMPT.test(summary.systemText) ? { kind: 'text', text: 'Fake session' } : null;
    // Said in the tool names the request offers (OpenCode's `read`, `bash`… beside Claude Code's).
    const reply = inOfferedDialect(titled ?? (kind === 'main' ? opts.respond?.(summary, record.seq) : null) ?? chooseReply(kind, summary, log.queued, script), summary.tools);
    Object.assign(record, { kind, summary, reply });
    announce();
    const ids = { messageId: `msg_fake_${record.seq}`, toolUseId: toolUseIdOf(record)! };
    const model = summary.model ?? 'claude-opus-5-5';
    const usage = opts.usageOf?.(record.seq) ?? DEFAULT_USAGE;
    if (reply.kind === 'error') {
      res.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': `req_${ids.messageId}`, ...reply.headers });
      res.end(JSON.stringify({ type: 'error', error: { type: reply.errorType, message: reply.message } }));
      return;
    }
    if (!summary.stream) {
      jsonReply(res, reply, model, ids, usage);
      record.served = usage;
      return;
    }
    server.track(res);
    if (await streamReply(res, reply, model, ids, usage)) record.served = usage;
  }

  const server = await serveOnLoopback(handle, (err) => ({ type: 'error', error: { type: 'api_error', message: `fake: ${String(err)}` } }));
  return scriptedFake(server, log);
}
