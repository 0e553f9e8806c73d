/**
 * A fake OpenAI Responses API on 127.0.0.1 for running the real Codex CLI, in tests and in
 * `hand doctor --calibrate`. Codex is pointed at it by a custom model provider
 * (`base_url = <url>/v1`, `wire_api = "responses"`); it posts every turn to `/v1/responses` with
 * `stream: true`. Scripted by a queue the caller fills and by trigger words (MODE:report <path>,
 * MODE:shell <cmd>); records every request so a caller can assert on what Codex sent.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, scriptedFake, sendJson, serveOnLoopback, type ScriptedFake } from './http.ts';
import { summariseCodexRequest, type RequestSummary } from './codex/request-summary.ts';
import { chooseCodexReply, type CodexScriptItem } from './codex/script.ts';
import { DEFAULT_CODEX_USAGE, streamCodexReply, type CodexServedUsage } from './codex/sse.ts';

export type { CodexServedUsage } from './codex/sse.ts';

export type { CodexScriptItem } from './codex/script.ts';
export type { RequestSummary as CodexRequestSummary } from './codex/request-summary.ts';
export { FAKE_TITLE, fakeCodexReport, writeFileCommand } from './codex/script.ts';

export interface CodexRequestRecord {
  seq: number;
  method: string;
  path: string;
  /** Which credential came with the request (its value is never kept). */
  auth: 'bearer' | 'none';
  /** Codex's own client name (`codex-tui`, `codex_exec`). */
  originator: string | null;
  summary?: RequestSummary;
  reply?: CodexScriptItem;
  /** The id of the tool call the reply made (`call_fake_<seq>`), when it made one. */
  callId?: string;
  /** The request body as sent, so a test can prove what never left the machine. */
  body?: string;
  /** The usage a reply served whole reported (`response.completed`; a hang or an error has none). */
  served?: CodexServedUsage;
}

export interface FakeCodexApi extends ScriptedFake<CodexScriptItem, CodexRequestRecord> {
  /** Agent-loop requests only (side requests such as the title left out). `url` + `/v1` is Codex's base_url. */
  turns(): CodexRequestRecord[];
}

export interface FakeCodexOptions {
  /** Answers an agent-loop request before the queue does (null: the queue and trigger words decide). */
  respond?: (summary: RequestSummary, seq: number) => CodexScriptItem | null;
  /** The usage each reply reports (default 100 in, 10 out): a test of token counts gives each its own. */
  usageOf?: (seq: number) => CodexServedUsage;
}

export async function startFakeCodexApi(opts: FakeCodexOptions = {}): Promise<FakeCodexApi> {
  const received: CodexRequestRecord[] = [];
  const queued: CodexScriptItem[] = [];
  const listeners = new Set<(r: CodexRequestRecord) => void>();
  let seq = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?', 1)[0]!;
    const method = req.method ?? 'GET';
    const originator = req.headers.originator;
    const record: CodexRequestRecord = {
      seq: ++seq,
      method,
      path,
      auth: req.headers.authorization ? 'bearer' : 'none',
      originator: typeof originator === 'string' ? originator : null,
    };
    const raw = await readBody(req);
    record.body = raw;
    received.push(record);
    const announce = () => listeners.forEach((l) => l(record));
    if (method !== 'POST' || path !== '/v1/responses') {
      sendJson(res, 404, { error: { type: 'not_found', message: `fake: no ${method} ${path}` } });
      return announce();
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      sendJson(res, 400, { error: { type: 'invalid_request_error', message: 'fake: body is not JSON' } });
      return announce();
    }
    const summary = summariseCodexRequest(body);
    const reply = (summary.side ? null : opts.respond?.(summary, record.seq)) ?? chooseCodexReply(summary, queued);
    Object.assign(record, { summary, reply }, reply.kind === 'shell' || reply.kind === 'call' ? { callId: `call_fake_${record.seq}` } : {});
    announce();
    if (reply.kind === 'error') {
      sendJson(res, reply.status, { error: { type: 'server_error', message: reply.message } });
      return;
    }
    server.track(res);
    const usage = opts.usageOf?.(record.seq) ?? DEFAULT_CODEX_USAGE;
    await streamCodexReply(res, reply, { responseId: `resp_fake_${record.seq}`, messageId: `msg_fake_${record.seq}`, callId: `call_fake_${record.seq}` }, usage);
    if (reply.kind !== 'hang' && !res.destroyed) record.served = usage;
  }

  const server = await serveOnLoopback(handle, (err) => ({ error: { type: 'server_error', message: `fake: ${String(err)}` } }));
  return {
    ...scriptedFake(server, received, queued, listeners),
    turns: () => received.filter((r) => r.summary !== undefined && !r.summary.side),
  };
}
