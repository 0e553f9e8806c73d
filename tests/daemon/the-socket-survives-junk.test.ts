/**
 * Issue 25 #5: junk on the daemon's socket never grows or ends the daemon. A line over the bound
 * without a newline is answered `request-too-large` and the connection closed (a 300 MB line grew
 * the daemon to 300 MB); JSON that is no request object (`null`, `5`, `[]`) is a `bad-request`
 * reply (reading `.method` off null threw in the data handler); the server goes on serving.
 * The real socket server with a one-method table: the framing is the point, not the methods.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Server } from 'node:net';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { makeTempDir } from '../helpers/temp.ts';
import { MAX_REQUEST_LINE, startSocketServer } from '../../daemon/server.ts';

let tmp: ReturnType<typeof makeTempDir>;
let server: Server;
let socketPath: string;
const KEY = randomBytes(32);

beforeAll(async () => {
  tmp = makeTempDir('socket-junk');
  socketPath = join(tmp.path, 'hand.sock');
  server = await startSocketServer(socketPath, { ping: async () => ({ pid: 1, home: tmp.path, socket: socketPath, uptimeMs: 0, workers: 0, store: null }) }, () => undefined, { key: KEY, keyPath: join(tmp.path, 'authority.key') });
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  tmp.cleanup();
});

/** Writes `payload`, collects every reply line until the server closes or `lines` replies came; bounded. */
function exchange(payload: string | Buffer[], lines = 1, timeoutMs = 10_000): Promise<{ replies: any[]; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const sock = connect(socketPath);
    let buf = '';
    const replies: any[] = [];
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`no ${lines} replies and no close within ${timeoutMs} ms (got ${JSON.stringify(replies)})`));
    }, timeoutMs);
    const done = (closed: boolean) => {
      clearTimeout(timer);
      sock.destroy();
      resolve({ replies, closed });
    };
    sock.on('data', (d) => {
      buf += d.toString('utf8');
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        replies.push(JSON.parse(buf.slice(0, nl)));
        buf = buf.slice(nl + 1);
      }
      if (replies.length >= lines && typeof payload === 'string') done(false);
    });
    sock.on('close', () => done(true));
    sock.on('error', () => undefined);
    if (typeof payload === 'string') sock.write(payload);
    else for (const chunk of payload) sock.write(chunk);
  });
}

describe('the socket survives junk', () => {
  it('a line over the bound without a newline is answered request-too-large and the connection closed', async () => {
    // 2 MiB in 64 KiB chunks, never a newline, and the socket left open: only the bound ends it
    const chunks = Array.from({ length: 32 }, () => Buffer.alloc(64 * 1024, 0x61));
    const r = await exchange(chunks);
    expect(r.closed).toBe(true);
    expect(r.replies).toHaveLength(1);
    expect(r.replies[0]).toMatchObject({ ok: false, error: { code: 'request-too-large', exitCode: 2 } });
    expect(r.replies[0].error.message).toContain(String(MAX_REQUEST_LINE));
  });

  it('JSON that is not a request object is a bad-request reply, and the server goes on serving', async () => {
    for (const junk of ['null', '5', '[]', '"ping"', '{"id":1,"method":"ping","params":null}', '{not json']) {
      const r = await exchange(`${junk}\n`);
      expect(r.replies[0], junk).toMatchObject({ ok: false, error: { code: 'bad-request', exitCode: 2 } });
    }
    const ok = await exchange('{"id":7,"method":"ping"}\n');
    expect(ok.replies[0]).toEqual({ id: 7, ok: true, result: { pid: 1, home: tmp.path, socket: socketPath, uptimeMs: 0, workers: 0, store: null } });
  });

  it('prototype names are unknown methods (asked with the key; without it they are not-the-person)', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const r = await exchange(`${JSON.stringify({ id: 2, method: name, authority: KEY.toString('hex') })}\n`);
      expect(r.replies[0], name).toMatchObject({ id: 2, ok: false, error: { code: 'unknown-method' } });
    }
  });
});
