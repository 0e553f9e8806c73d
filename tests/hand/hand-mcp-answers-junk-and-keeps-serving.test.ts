/**
 * Issue 25 #5: `hand mcp` answers junk with JSON-RPC errors and keeps serving. Malformed JSON
 * got no reply at all, and a message over 10 MiB ended `hand mcp` with exit 0 and nothing on
 * stderr (the Hand lost every tool). The binary over raw stdio: the framing is the point.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { makeTempDir } from '../helpers/temp.ts';
import { HAND_BIN } from '../helpers/hand-process.ts';

const temps: Array<{ cleanup(): void }> = [];
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const t of temps.splice(0)) t.cleanup();
});

/** `hand mcp` on a fresh home, and a reader of its stdout lines (JSON) and stderr, each wait bounded. */
function mcp() {
  const tmp = makeTempDir('mcp-junk');
  temps.push(tmp);
  const child = spawn(process.execPath, [HAND_BIN, '--home', join(tmp.path, 'state'), 'mcp'], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  // a server that died is reported by next(), not as an EPIPE on a later write
  child.stdin.on('error', () => undefined);
  const lines: any[] = [];
  let out = '';
  let err = '';
  let exited: number | null = null;
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString('utf8');
    for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
      lines.push(JSON.parse(out.slice(0, nl)));
      out = out.slice(nl + 1);
    }
  });
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  child.on('exit', (code) => (exited = code ?? 1));
  // woken by the server's own output and exit, never by a timer other than the bound
  const next = (n: number, what: string, timeoutMs = 15_000) =>
    new Promise<any>((resolve, reject) => {
      const check = () => {
        if (lines.length >= n) finish(() => resolve(lines[n - 1]));
        else if (exited !== null) finish(() => reject(new Error(`hand mcp exited ${exited} before ${what}; stderr: ${err}`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`no ${what} within ${timeoutMs} ms; stderr: ${err}`))), timeoutMs);
      const finish = (fn: () => void) => {
        clearTimeout(timer);
        child.stdout.off('data', onEvent);
        child.off('exit', onEvent);
        fn();
      };
      const onEvent = () => setImmediate(check);
      child.stdout.on('data', onEvent);
      child.on('exit', onEvent);
      check();
    });
  return { child, next, stderr: () => err, exited: () => exited };
}

const initialize = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'kh-test', version: '0' } } })}\n`;

describe('hand mcp answers junk and keeps serving', () => {
  it('malformed JSON-RPC gets a parse error or invalid request reply, then a request is served', async () => {
    const m = mcp();
    m.child.stdin.write('{this is not json\n');
    expect(await m.next(1, 'a reply to malformed JSON')).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    m.child.stdin.write('{"id":5,"hello":true}\n');
    expect(await m.next(2, 'a reply to a non-JSON-RPC object')).toMatchObject({ id: 5, error: { code: -32600 } });
    m.child.stdin.write(initialize);
    expect(await m.next(3, 'the initialize result')).toMatchObject({ id: 1, result: { serverInfo: { name: 'hand' } } });
  }, 30_000);

  it('a message over 10 MiB is an error reply and a line on stderr, and hand mcp keeps serving', async () => {
    const m = mcp();
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    for (let i = 0; i < 11; i += 1) m.child.stdin.write(chunk);
    m.child.stdin.write('\n');
    expect(await m.next(1, 'a reply to the oversized message')).toMatchObject({ id: null, error: { code: -32600 } });
    expect(m.stderr()).toContain('message over 10485760 bytes (10 MiB) refused');
    m.child.stdin.write(initialize);
    expect(await m.next(2, 'the initialize result after the oversized message')).toMatchObject({ id: 1, result: { serverInfo: { name: 'hand' } } });
    expect(m.exited()).toBeNull();
  }, 30_000);
});
