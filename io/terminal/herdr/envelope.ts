/**
 * herdr's JSON envelopes (reference §1.6): success is `{"id":"cli:…","result":{…}}` on stdout,
 * failure `{"error":{"code":"…","message":"…"},"id":"…"}` on stderr with exit 1; a usage error
 * exits 2 with plain text. Reads print raw text instead, and a read whose text parses as an error
 * object is a failed read, never a screen (control-plane §3.1): an error payload is non-empty,
 * wide and constant, and read as a screen it would look like a worker frozen on an error.
 */
import { RefusedError } from '../../../contract/errors.ts';
import type { HerdrRun } from './herdr-cli.ts';

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
 * A raw-text read (control-plane §3.1): a non-zero exit, an empty/whitespace text, or a text that
 * parses as JSON with an `error` property (even at exit 0) is a failed read. Otherwise the text,
 * untrimmed.
 */
export function textReadOf(command: string, run: HerdrRun): TextOutcome {
  if (run.exitCode === null) return { ok: false, error: `herdr ${command}: ${run.spawnError ?? 'did not run'}` };
  for (const text of [run.stdout, run.stderr]) {
    const error = errorOf(text);
    if (error) return { ok: false, error: `herdr ${command}: ${error.code} - ${error.message}` };
  }
  if (run.exitCode !== 0) return { ok: false, error: `herdr ${command} exited ${run.exitCode}: ${(run.stderr || run.stdout).trim().slice(0, 200)}` };
  if (run.stdout.trim() === '') return { ok: false, error: `herdr ${command}: nothing that could be read` };
  return { ok: true, text: run.stdout };
}
