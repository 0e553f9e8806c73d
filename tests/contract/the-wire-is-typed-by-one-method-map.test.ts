/**
 * One typed method map (contract/methods.ts) types the wire on both sides (issue 20 item 1):
 * - the client's `call` takes each method's own params and answers its own result, so a wrong
 *   param or a misread result does not compile (the `@ts-expect-error` lines below are checked by
 *   `tsc --noEmit`, part of `npm test`: an error that stops happening fails the type-check);
 * - the daemon's table must hold a handler of exactly its entry's shape for every name;
 * - every request reaches its handler only through its method's edge parser, once.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { METHODS, type MethodName, type ParamsOf, type ResultOf, type WaitReport, type WorkerStatus } from '../../contract/methods.ts';
import { servedMethod, serveMethods, type CallContext, type Handler, type MethodTable, type ParamParsers } from '../../contract/protocol.ts';
import { PARAM_PARSERS } from '../../daemon/method-table.ts';
import type { call } from '../../cli/client.ts';
import { HandError } from '../../contract/errors.ts';

type Call = typeof call;
const ctx: CallContext = { progress: () => undefined, signal: new AbortController().signal };

/** Compiled, never run: each line states what the compiler accepts or refuses. */
export function typeChecks(c: Call, paths: Parameters<Call>[0]): void {
  void c(paths, 'wait', { id: 'w1', until: 'settled', timeoutMs: 1000 });
  // @ts-expect-error -- 'soon' is not an Until
  void c(paths, 'wait', { id: 'w1', until: 'soon' });
  // @ts-expect-error -- wait needs the worker's id
  void c(paths, 'wait', {});
  // @ts-expect-error -- a method the daemon does not serve
  void c(paths, 'waitForever', {});
  // @ts-expect-error -- keys takes a key name, not a number
  void c(paths, 'keys', { id: 'w1', key: 13 });
  // @ts-expect-error -- an unknown param is refused, not carried along
  void c(paths, 'status', { id: 'w1', verbose: true });
  void c(paths, 'projects'); // no params needed: none given
  // @ts-expect-error -- send needs its text
  void c(paths, 'send');
  void (async () => {
    const rows = await c(paths, 'status');
    expectTypeOf(rows).toEqualTypeOf<WorkerStatus[]>();
    // @ts-expect-error -- a status row has no `phase`: the misreading does not compile
    void rows[0]?.phase;
    const r = await c(paths, 'wait', { id: 'w1' });
    expectTypeOf(r).toEqualTypeOf<WaitReport>();
    // @ts-expect-error -- `met` is a boolean, not a string
    const met: string = r.met;
    void met;
  })();
}

/** A handler must answer its method's result: a drifting handler does not compile. */
export const handlerChecks = {
  ping: (async () => ({ pid: 1, home: '/h', socket: '/s', uptimeMs: 0, workers: 0, store: null })) satisfies Handler<'ping'>,
  // @ts-expect-error -- ping answers a PingResult, not {pong}
  drifted: (async () => ({ pong: true })) satisfies Handler<'ping'>,
  // @ts-expect-error -- a handler cannot read a param its method does not take
  stray: (async (p: ParamsOf<'stop'>) => ({ id: p.worker, stage: 's', exitCode: null, paneReusable: false, condition: null })) satisfies Handler<'stop'>,
};

describe('the wire is typed by one method map', () => {
  it('the map, the parsers and the list of names agree: every method has exactly one edge parser', () => {
    expect(Object.keys(PARAM_PARSERS).sort()).toEqual([...METHODS].sort());
    expectTypeOf<keyof ParamParsers>().toEqualTypeOf<MethodName>();
    expectTypeOf<keyof MethodTable>().toEqualTypeOf<MethodName>();
    expectTypeOf<ResultOf<'ping'>>().toHaveProperty('pid').toEqualTypeOf<number>();
  });

  it('a request reaches its handler only through its parser: a bad param is refused before the handler runs, with the same refusal as before', async () => {
    const seen: ParamsOf<'wait'>[] = [];
    const wait: Handler<'wait'> = async (p) => {
      seen.push(p);
      return { id: p.id, reason: 'settled', met: true, stage: 'done', state: 'idle', awaitingInput: false, blockedReason: null, dialog: null, promptBox: null, readable: true, couldNotTell: null, lastActivity: '', quietMs: null, waitedMs: 0 };
    };
    // Only `wait` is called here; the rest of the table is never reached.
    const table = { wait } as MethodTable;
    const served = servedMethod(table, PARAM_PARSERS, 'wait');
    const refused = await served({ id: 'w1', until: 'soon' }, ctx).then(() => null, (e: unknown) => e);
    expect(refused).toBeInstanceOf(HandError);
    expect(refused).toMatchObject({ code: 'bad-until' });
    await expect(served({ until: 'settled' }, ctx)).rejects.toMatchObject({ code: 'bad-request', message: 'missing or invalid id' });
    await expect(served({ id: 'w1', timeoutMs: '30s' }, ctx)).rejects.toMatchObject({ message: '--timeout must be positive (got "30s"), e.g. 30s or 20m.' });
    expect(seen).toEqual([]);
    await served({ id: 'w1', until: 'blocked', junk: 1 }, ctx);
    // The handler got the parsed params: its own fields only, typed (junk dropped, defaults left to it).
    expect(seen).toEqual([{ id: 'w1', until: 'blocked', timeoutMs: undefined }]);
  });

  it('serveMethods puts every method of the table behind its parser, by name', () => {
    const table = Object.fromEntries(METHODS.map((m) => [m, async () => null])) as unknown as MethodTable;
    const served = serveMethods(table, PARAM_PARSERS);
    expect(Object.keys(served).sort()).toEqual([...METHODS].sort());
  });
});
