/**
 * Issue 25 #5: `hand hook` bounds its stdin read in size and time and never lingers on a stdin
 * that stays open. It proceeds once the payload is whole JSON, at 1 MiB, or at 2 s, and still
 * delivers (or queues) what it has. The reader runs here on a stream that is never ended, as a
 * writer holding the pipe open leaves it.
 */
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { MAX_PAYLOAD, readStdin } from '../../cli/commands/hook.ts';

/** Resolves with what the reader returned and how long it took; the test's own bound is `ms` + 5 s. */
async function timed(stream: PassThrough, ms: number): Promise<{ text: string; tookMs: number }> {
  const started = Date.now();
  const text = await Promise.race([
    readStdin(stream, ms),
    new Promise<string>((_, reject) => setTimeout(() => reject(new Error(`readStdin did not return within ${ms + 5000} ms`)), ms + 5000)),
  ]);
  return { text, tookMs: Date.now() - started };
}

describe('hand hook bounds its stdin', () => {
  it('a whole JSON payload on a stdin left open is read at once, not at the time bound', async () => {
    const stdin = new PassThrough();
    const reading = timed(stdin, 10_000);
    stdin.write('{"hook_event_name":"Stop",');
    stdin.write('"session_id":"s1"}\n');
    const r = await reading;
    expect(JSON.parse(r.text)).toEqual({ hook_event_name: 'Stop', session_id: 's1' });
    expect(r.tookMs).toBeLessThan(5000);
  });

  it('an endless stream stops at the size bound, keeping no more than it', async () => {
    const stdin = new PassThrough();
    const reading = timed(stdin, 10_000);
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    for (let i = 0; i < 6; i += 1) stdin.write(chunk);
    const r = await reading;
    expect(r.text.length).toBe(MAX_PAYLOAD);
    expect(r.tookMs).toBeLessThan(5000);
  });

  it('a stdin that stays open and silent ends at the time bound with what came', async () => {
    const stdin = new PassThrough();
    const reading = timed(stdin, 300);
    stdin.write('{"half":');
    const r = await reading;
    expect(r.text).toBe('{"half":');
  });
});
