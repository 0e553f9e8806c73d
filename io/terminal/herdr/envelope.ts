/**
 * herdr's JSON envelopes (reference §1.6): success is `{"id":"cli:…","result":{…}}` on stdout,
 * failure `{"error":{"code":"…","message":"…"},"id":"…"}` on stderr with exit 1; a usage error
 * exits 2 with plain text. The socket answers `{"id","result"}` or `{"id","error"}` (§1.8). A read
 * whose text parses as an error object is a failed read, never a screen (control-plane §3.1): an
 * error payload is non-empty, wide and constant, and read as a screen it would look like a worker
 * frozen on an error.
 */
import { RefusedError } from '../../../contract/errors.ts';
import type { HerdrRun } from './herdr-cli.ts';
import type { PaneReadReply, SocketReply } from './herdr-socket.ts';

export interface HerdrErrorBody {
  code: string;
  message: string;
}

/** A herdr command that failed; `code` is herdr's error code (or `transport` / `usage`). */
export class HerdrError extends RefusedError {
  constructor(
    readonly command: string,
    readonly herdrCode: string,
    herdrMessage: string,
  ) {
    super('herdr-error', `herdr ${command}: ${herdrCode} - ${herdrMessage}`, { herdrCode, herdrMessage });
    this.name = 'HerdrError';
  }
}

function parseJson(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}

/** The error object of a herdr JSON payload, if the text is one. */
export function errorOf(text: string): HerdrErrorBody | null {
  const parsed = parseJson(text) as { error?: unknown } | undefined;
  if (!parsed || typeof parsed !== 'object' || !('error' in parsed) || parsed.error === undefined) return null;
  const e = parsed.error as Partial<HerdrErrorBody> | string | null;
  if (e && typeof e === 'object') return { code: String(e.code ?? 'unknown'), message: String(e.message ?? '') };
  return { code: 'unknown', message: String(e) };
}

export type Outcome<T> = { ok: true; result: T } | { ok: false; error: HerdrErrorBody };

/** Interprets a JSON command's run: result, or herdr's error, or a transport/usage failure. */
export function outcomeOf<T = Record<string, unknown>>(run: HerdrRun): Outcome<T> {
  if (run.exitCode === null) return { ok: false, error: { code: 'transport', message: run.spawnError ?? 'herdr did not run' } };
  // kingshand merges stderr into stdout for this reason: either stream may carry the envelope.
  for (const text of [run.stderr, run.stdout]) {
    const error = errorOf(text);
    if (error) return { ok: false, error };
  }
  if (run.exitCode !== 0) {
    const text = (run.stderr || run.stdout).trim();
    return { ok: false, error: { code: run.exitCode === 2 ? 'usage' : 'transport', message: text || `exit ${run.exitCode}` } };
  }
  const parsed = parseJson(run.stdout) as { result?: T } | undefined;
  if (!parsed || typeof parsed !== 'object' || parsed.result === undefined) {
    return { ok: false, error: { code: 'transport', message: `unreadable herdr reply: ${JSON.stringify(run.stdout.slice(0, 200))}` } };
  }
  return { ok: true, result: parsed.result };
}

/** Like outcomeOf, but a failure throws a HerdrError naming the command. */
export function resultOf<T = Record<string, unknown>>(command: string, run: HerdrRun): T {
  const outcome = outcomeOf<T>(run);
  if (!outcome.ok) throw new HerdrError(command, outcome.error.code, outcome.error.message);
  return outcome.result;
}

export type TextOutcome = { ok: true; text: string } | { ok: false; error: string };

/**
 * A screen or scrollback read over the socket (control-plane §3.1): herdr's error, a socket
 * nobody answers on (could not tell, never a screen), a reply without `read.text`, an empty or
 * whitespace text, or a text that parses as JSON with an `error` property are failed reads.
 * Otherwise the text, untrimmed.
 */
export function readTextOf(method: string, reply: SocketReply<PaneReadReply>): TextOutcome {
  if (!reply.ok) return { ok: false, error: `herdr ${method}: ${reply.error.code} - ${reply.error.message}` };
  const text = reply.result.read?.text;
  if (typeof text !== 'string') return { ok: false, error: `herdr ${method}: reply without read.text` };
  const error = errorOf(text);
  if (error) return { ok: false, error: `herdr ${method}: ${error.code} - ${error.message}` };
  if (text.trim() === '') return { ok: false, error: `herdr ${method}: nothing that could be read` };
  return { ok: true, text };
}

/** A socket request's result, or a HerdrError naming the method. */
export function replyResultOf<T>(method: string, reply: SocketReply<T>): T {
  if (!reply.ok) throw new HerdrError(method, reply.error.code, reply.error.message);
  return reply.result;
}
