/**
 * How herdr's replies are read (control-plane §1.2, §1.4, §3.1): a failed read is never a screen,
 * a failed status probe is never "stopped". The inputs are the exact shapes herdr prints.
 */
import { describe, expect, it } from 'vitest';
import { outcomeOf, readTextOf } from '../../io/terminal/herdr/envelope.ts';
import type { HerdrRun } from '../../io/terminal/herdr/herdr-cli.ts';
import type { PaneReadReply, SocketReply } from '../../io/terminal/herdr/herdr-socket.ts';
import { serverStateOf } from '../../io/terminal/herdr/server-state.ts';

const run = (exitCode: number | null, stdout = '', stderr = '', spawnError?: string): HerdrRun => ({ exitCode, stdout, stderr, spawnError });

describe('a herdr screen read', () => {
  const read = (text: unknown): SocketReply<PaneReadReply> => ({ ok: true, result: { read: { text, revision: 3 } } });

  it('is a failed read when herdr answers with its error', () => {
    const got = readTextOf('pane.read', { ok: false, error: { code: 'pane_not_found', message: 'pane w9:p9 not found' }, unreachable: false });
    expect(got).toEqual({ ok: false, error: 'herdr pane.read: pane_not_found - pane w9:p9 not found' });
  });

  it('is a failed read, not a screen, when nobody answers on the socket', () => {
    const got = readTextOf('pane.read', { ok: false, error: { code: 'server_not_running', message: 'connect ENOENT /s' }, unreachable: true });
    expect(got.ok).toBe(false);
    expect(!got.ok && got.error).toContain('server_not_running');
  });

  it('is a failed read when the text is a JSON error envelope', () => {
    const got = readTextOf('pane.read', read(JSON.stringify({ error: { code: 'pane_not_found', message: 'pane w9:p9 not found' }, id: 'x' })));
    expect(got).toEqual({ ok: false, error: 'herdr pane.read: pane_not_found - pane w9:p9 not found' });
  });

  it('is a failed read when nothing could be read (empty, whitespace, or no text at all)', () => {
    expect(readTextOf('pane.read', read('')).ok).toBe(false);
    expect(readTextOf('pane.read', read('\n  \n\n')).ok).toBe(false);
    expect(readTextOf('pane.read', read(undefined)).ok).toBe(false);
    expect(readTextOf('pane.read', { ok: true, result: {} }).ok).toBe(false);
  });

  it('keeps a rendered screen untrimmed, even one mentioning errors', () => {
    const screen = '  error: build failed\n❯\u00a0fix it \n';
    expect(readTextOf('pane.read', read(screen))).toEqual({ ok: true, text: screen });
    // JSON without an `error` property is screen content, not a failure.
    expect(readTextOf('pane.read', read('{"result":1}')).ok).toBe(true);
  });
});

describe('a herdr JSON command', () => {
  it('returns the result of the success envelope', () => {
    const out = outcomeOf(run(0, '{"id":"cli:workspace:create","result":{"type":"workspace_created","root_pane":{"pane_id":"w7:p1"}}}\n'));
    expect(out).toEqual({ ok: true, result: { type: 'workspace_created', root_pane: { pane_id: 'w7:p1' } } });
  });

  it("keeps herdr's error code and message", () => {
    const out = outcomeOf(run(1, '', '{"error":{"code":"agent_not_ready","message":"agent w is blocked"},"id":"cli:agent:start"}\n'));
    expect(out).toEqual({ ok: false, error: { code: 'agent_not_ready', message: 'agent w is blocked' } });
  });

  it('tells a usage error (exit 2, plain text) and an unreadable reply apart from a result', () => {
    expect(outcomeOf(run(2, '', "error: unexpected argument '--x' found\n"))).toEqual({
      ok: false,
      error: { code: 'usage', message: "error: unexpected argument '--x' found" },
    });
    expect(outcomeOf(run(0, 'not json')).ok).toBe(false);
    expect(outcomeOf(run(0, '{"id":"x"}')).ok).toBe(false);
  });
});

describe('the herdr server state', () => {
  it('is running when status --json says server.running is true', () => {
    expect(serverStateOf(run(0, '{"client":{"protocol":20},"server":{"status":"running","running":true,"protocol":20}}'))).toEqual({ state: 'running' });
  });

  it('is stopped only when herdr answered that it is not running', () => {
    expect(serverStateOf(run(0, '{"client":{"protocol":20},"server":{"status":"not_running","running":false}}'))).toEqual({ state: 'stopped' });
  });

  it('is unknown, never stopped, when the probe itself failed', () => {
    const cases: HerdrRun[] = [
      run(1, '', 'boom'), // non-zero exit
      run(0, 'server:\n  status: running\n'), // the YAML text form, not JSON
      run(0, '{"client":{},"server":{"status":"running"}}'), // a renamed/missing running field
      run(0, '{"client":{}}'), // no server object
      run(0, '   '), // empty
      run(null, '', '', 'spawn /nope/herdr ENOENT'), // missing binary
    ];
    for (const c of cases) expect(serverStateOf(c).state).toBe('unknown');
    const missing = serverStateOf(run(null, '', '', 'spawn /nope/herdr ENOENT'));
    expect(missing.state === 'unknown' && missing.detail).toContain('ENOENT');
  });
});
