/**
 * Rule (issue 40): a worker's browser check is not lost to the length of its temp directory. A
 * worker's TMPDIR is its own `<state>/agents/<id>/tmp`; Chromium makes its singleton socket under
 * TMPDIR, a Unix socket's path holds at most 107 bytes, and with a longer directory Chromium stopped
 * at once ("Socket path too long": every check of the real-Claude end-to-end run read not checked).
 * The tool gives Chromium a short temp directory (in the sandbox /tmp is the same place), so the
 * check runs and is verified.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCli } from '../../cli/program.ts';
import { shortTempDir } from '../../io/browser/run-check.ts';
import { makeTempDir } from '../helpers/temp.ts';

let site: Server;
let origin: string;
let tmp: { path: string; cleanup(): void };

beforeAll(async () => {
  tmp = makeTempDir('long-tmp');
  site = createServer((_q, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Hi</title><h1>Hello from the basket</h1>');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => site.close(() => r()));
  tmp.cleanup();
});

async function hand(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  let out = '';
  const stream = { write: (s: string) => ((out += s), true), isTTY: false } as never;
  const code = await runCli(['node', 'hand', ...args], { stdout: stream, stderr: stream, env });
  return { code, out };
}

describe("a worker's long temp directory does not stop its browser", () => {
  it('a TMPDIR too long for a socket path is swapped for a short one', () => {
    const long = `/tmp/${'x'.repeat(80)}`;
    expect(shortTempDir({ TMPDIR: long })).toBe('/tmp');
    expect(shortTempDir({ TMPDIR: '/tmp/w1' })).toBe('/tmp/w1');
  });

  it('a check run with a 100-character TMPDIR is verified, not lost to "Socket path too long"', async () => {
    const worker = join(tmp.path, 'workers', 'w1');
    const out = join(worker, 'out');
    const longTmp = join(tmp.path, 'agents', 'a-worker-with-a-rather-long-name', 'tmp', 'y'.repeat(Math.max(1, 100 - tmp.path.length - 45)));
    mkdirSync(out, { recursive: true });
    mkdirSync(longTmp, { recursive: true });
    expect(longTmp.length).toBeGreaterThanOrEqual(90);
    writeFileSync(join(worker, 'brief.md'), '# Brief\n\n## Browser checks\n\n- C-001: the basket says hello\n');
    const r = await hand(['browser-check', 'C-001', '--out', out, '--url', `${origin}/`, '--expect', 'Hello from the basket'], { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp.path, TMPDIR: longTmp });
    const record = JSON.parse(readFileSync(join(out, 'checks.json'), 'utf8')).checks['C-001'];
    expect(record.reason ?? '', 'the browser started').not.toContain('Socket path too long');
    expect(r.code, r.out).toBe(0);
    expect(record).toMatchObject({ result: 'verified', observed: { status: 200, title: 'Hi' } });
  }, 60_000);
});
