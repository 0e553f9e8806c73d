/**
 * The daemon's wire protocol: newline-delimited JSON over a Unix domain socket.
 *   request   {"id":1,"method":"status","params":{...}}
 *   progress  {"id":1,"progress":{...}}          (zero or more, for long calls such as wait)
 *   response  {"id":1,"ok":true,"result":...}  |  {"id":1,"ok":false,"error":{code,message,exitCode,details}}
 */
import { HandError } from './errors.ts';
import { isDiskFullError, isLockedError } from './store-errors.ts';
import { METHODS, type MethodName, type ParamsOf, type ProgressOf, type ResultOf } from './methods.ts';

/** A request as the client writes it: the method's own params, checked by the compiler. */
export interface Request<M extends MethodName = MethodName> {
  id: number;
  method: M;
  params: ParamsOf<M>;
  /** The daemon's authority key (hex), presented by the person's faces; never in params, argv or env. */
  authority?: string;
}

/**
 * A request as the server reads it off the socket, before anything is known of it: the edge
 * (daemon/server.ts) checks the shape, then the method's parser turns `params` into ParamsOf<M>.
 */
export interface RawRequest {
  id?: unknown;
  method?: unknown;
  params?: unknown;
  authority?: unknown;
  /** Who says they call: `hand` for the Hand (contract/methods.ts PERSON_ONLY_METHODS). */
  via?: unknown;
}

export interface WireError {
  code: string;
  message: string;
  exitCode: 1 | 2 | 3;
  details?: Record<string, unknown>;
}

export type Reply<M extends MethodName = MethodName> =
  | { id: number; ok: true; result: ResultOf<M> }
  | { id: number; ok: false; error: WireError }
  | { id: number; progress: ProgressOf<M> };

/**
 * Splits a byte stream into complete lines; keeps a partial line for the next chunk. With
 * `maxLine`, a line (complete or still pending) longer than that calls `onOverflow` once and the
 * rest of the stream is dropped: a peer that never sends a newline cannot grow the buffer without end.
 */
export function lineSplitter(onLine: (line: string) => void, maxLine = Infinity, onOverflow?: () => void): (chunk: Buffer | string) => void {
  let pending = '';
  let overflowed = false;
  const overflow = () => {
    overflowed = true;
    pending = '';
    onOverflow?.();
  };
  return (chunk) => {
    if (overflowed) return;
    pending += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    let nl = pending.indexOf('\n');
    while (nl >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (line.length > maxLine) return overflow();
      if (line.trim()) onLine(line);
      if (overflowed) return;
      nl = pending.indexOf('\n');
    }
    if (pending.length > maxLine) overflow();
  };
}

export interface CallContext<M extends MethodName = MethodName> {
  /** Send a progress message for this request (live status lines). */
  progress(payload: ProgressOf<M>): void;
  /** Aborted when the client goes away: long waits stop listening. */
  signal: AbortSignal;
}

/** One method's handler: its typed params in (already parsed at the edge), its typed result out. */
export type Handler<M extends MethodName> = (params: ParamsOf<M>, ctx: CallContext<M>) => Promise<ResultOf<M>>;

/** The daemon's whole method table: a handler of exactly its map entry's shape for every name. */
export type MethodTable = { [M in MethodName]: Handler<M> };

/** Each method's edge parser: the raw params off the socket (a JSON object) → its typed params, or a refusal. */
export type ParamParsers = { [M in MethodName]: (raw: WireObject) => ParamsOf<M> };

/** A JSON object as it arrives, before its method's parser has read it. */
export type WireObject = { readonly [key: string]: unknown };

/** A method as the socket and the review page reach it: raw params in, parsed once by its parser, then its handler. */
export type ServedMethod<M extends MethodName> = (raw: WireObject, ctx: CallContext<M>) => Promise<ResultOf<M>>;
export type ServedMethods = { [M in MethodName]?: ServedMethod<M> };

/** One method of the table behind its edge parser: the only way a raw request reaches a handler. */
export function servedMethod<M extends MethodName>(table: MethodTable, parsers: ParamParsers, method: M): ServedMethod<M> {
  const parse: ParamParsers[M] = parsers[method];
  const handle: MethodTable[M] = table[method];
  // async: a refusal of the parser is a rejected promise, like a refusal of the handler
  return async (raw, ctx) => handle(parse(raw), ctx);
}

/** Every method of the table behind its parser, by name (what the socket server and the page look up). */
export function serveMethods(table: MethodTable, parsers: ParamParsers): ServedMethods {
  const add = <M extends MethodName>(served: ServedMethods, method: M): ServedMethods => ({ ...served, [method]: servedMethod(table, parsers, method) });
  return METHODS.reduce(add, {});
}

/** A thrown error as the wire carries it: typed errors keep their code and exit code. */
export function toWireError(err: unknown): WireError {
  if (err instanceof HandError) {
    return { code: err.code, message: err.message, exitCode: err.exitCode, details: err.details };
  }
  const message = err instanceof Error ? err.message : String(err);
  // A write the state database refused for a while (issue 25): the person's request is refused
  // whole, with the reason and the fix, not an "internal error".
  if (isLockedError(err)) {
    return { code: 'state-db-locked', message: `the state database is locked by another process (${message}); nothing was changed. Close what holds it (a sqlite3 shell, a backup tool) and try again; \`hand daemon status\` says what waits.`, exitCode: 1 };
  }
  if (isDiskFullError(err)) {
    return { code: 'state-disk-full', message: `the disk under the state directory is full (${message}); nothing was changed. Free space there and try again; the daemon keeps the fleet's transitions in memory until it can write them.`, exitCode: 1 };
  }
  return { code: 'internal', message: `internal error in the daemon: ${message} (see \`hand logs\`)`, exitCode: 1 };
}

