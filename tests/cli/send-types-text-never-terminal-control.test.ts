/**
 * `hand send` types text, never terminal control: `hello\x03\x03` made the agent exit, ESC
 * sequences arrived as arrow keys, and an embedded bracketed-paste end marker broke out of the
 * paste. Such text is refused before anything reaches the pane, by the CLI and by the daemon (a
 * script may talk to the socket directly), with a pointer at `hand keys`. Empty and
 * whitespace-only text is refused too: it used to be reported as sent and left spaces in the box.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callUnchecked } from '../../cli/client.ts';
import { homePaths } from '../../contract/home.ts';
import { HandError } from '../../contract/errors.ts';
import { makeCliWorld, type CliWorld } from './cli-harness.ts';

let w: CliWorld;
beforeAll(async () => {
  w = await makeCliWorld('cli-send-text');
  expect((await w.hand(['annex', w.repo, '--yolo'])).code).toBe(0);
  const d = await w.hand(['dispatch', 'w1', '--repo', w.repo, '--brief', w.brief('b', 'Say hello.'), '--agent', 'mock', '--json']);
  expect(d.code, d.stderr).toBe(0);
  const settled = await w.hand(['wait', 'w1', '--until', 'settled', '--timeout', '30s', '--json']);
  expect(settled.code, settled.stdout + settled.stderr).toBe(0);
}, 90_000);
afterAll(async () => {
  await w.cleanup();
});

async function daemonRefusal(text: unknown): Promise<HandError> {
  const err = await callUnchecked(homePaths(w.home), 'send', { id: 'w1', text }, { autostart: false }).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(HandError);
  return err as HandError;
}

async function stillIdleAndEmpty() {
  const s = await w.hand(['status', 'w1', '--json']);
  expect(s.json[0]).toMatchObject({ live: true, promptBox: '' });
}

describe('send types text, never terminal control', () => {
  for (const [what, text] of [
    ['ctrl-c', 'hello\x03\x03'],
    ['an ESC arrow-key sequence', 'go\x1b[A'],
    ['a bracketed-paste end marker', `${'x'.repeat(600)}\x1b[201~\r/exit\r`],
  ] as const) {
    it(`text holding ${what} is refused (exit 2) pointing at hand keys; nothing reaches the worker`, async () => {
      const r = await w.hand(['send', 'w1', text]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/control character \\x1b|control character \\x03/);
      expect(r.stderr).toContain('hand keys w1');
      expect((await daemonRefusal(text)).code).toBe('control-in-text');
      await stillIdleAndEmpty();
    });
  }

  it('empty and whitespace-only text is refused, not reported as sent', async () => {
    for (const text of ['', '   ', ' \t ']) {
      const r = await w.hand(['send', 'w1', text]);
      expect(r.code, JSON.stringify(text)).toBe(2);
      expect(r.stderr).toMatch(/nothing was sent/);
      expect((await daemonRefusal(text)).code).toBe('empty-text');
    }
    await stillIdleAndEmpty();
    // and the worker still stops cleanly: no spaces were left for /exit to follow
    const stop = await w.hand(['stop', 'w1', '--timeout', '15s', '--json']);
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.json).toMatchObject({ exitCode: 0 });
  });

  it('newlines and tabs are text', async () => {
    const { checkSendableText } = await import('../../io/text/sendable-text.ts');
    expect(checkSendableText('line one\n\tline two')).toBe('line one\n\tline two');
  });
});
