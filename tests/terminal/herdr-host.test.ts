/**
 * The herdr host against the herdr double (a real server hosting real ptys): the behaviours that
 * are herdr-specific and not covered by the shared host contract.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHerdrHost, type HerdrHost } from '../../io/terminal/herdr/herdr-host.ts';
import type { PaneEvent, PaneSpec } from '../../io/terminal/types.ts';
import { installClaudeShim, installFailingClaude, makeHerdrDouble, type HerdrDouble } from '../doubles/herdr/fixture.ts';
import { waitFor, waitForEvent } from '../helpers/temp.ts';

let double: HerdrDouble;
let host: HerdrHost;
let argvLog: string;
let requestLog: string;

beforeEach(() => {
  double = makeHerdrDouble('herdr-host');
  argvLog = join(double.dir, 'argv.log');
  requestLog = join(double.dir, 'requests.log');
  host = createHerdrHost({ ...double.hostOptions(), env: { ...double.env, HERDR_DOUBLE_ARGV_LOG: argvLog, HERDR_DOUBLE_REQUEST_LOG: requestLog } });
});

afterEach(async () => {
  await host.dispose();
  await double.cleanup();
});

/** Every herdr command line the host ran, in order. */
const commandLines = (): string[][] => (existsSync(argvLog) ? readFileSync(argvLog, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : []);

interface SocketRequest {
  id: string;
  method: string;
  params: Record<string, unknown>;
}
/** Every socket request the host sent itself (not through the CLI), in order. */
const socketRequests = (method: string): SocketRequest[] =>
  (existsSync(requestLog) ? readFileSync(requestLog, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as SocketRequest) : [])
    .filter((r) => r.method === method && !String(r.id).startsWith('cli:'));

const spec = (argv: string[], extraEnv: Record<string, string> = {}): PaneSpec => ({
  name: 'worker-1',
  cwd: double.dir,
  env: { PATH: `${double.binDir}:${process.env.PATH}`, HOME: double.dir, TERM: 'xterm-256color', LANG: 'C.UTF-8', ...extraEnv },
  argv,
});

const screenText = async (paneId: string) => {
  const read = await host.readVisible(paneId);
  return read.ok ? read.screen.lines.map((l) => l.text).join('\n') : '';
};

describe('herdr server state', () => {
  it('is stopped before a server runs, running after ensureServer, stopped after stopServer', async () => {
    expect(await host.serverState()).toEqual({ state: 'stopped' });
    await host.ensureServer();
    expect(await host.serverState()).toEqual({ state: 'running' });
    await host.ensureServer(); // idempotent: no second server
    expect(commandLines().filter((a) => a[0] === 'server' && a.length === 1)).toHaveLength(1);
    await host.stopServer();
    expect(await host.serverState()).toEqual({ state: 'stopped' });
  });

  it('is unknown, not stopped, when herdr cannot be run', async () => {
    const missing = createHerdrHost({ ...double.hostOptions(), herdrBin: join(double.dir, 'no-such-herdr') });
    const state = await missing.serverState();
    expect(state.state).toBe('unknown');
    await expect(missing.ensureServer()).rejects.toThrow(/cannot tell whether a herdr server runs/);
  });
});

describe('herdr panes', () => {
  beforeEach(async () => {
    await host.ensureServer();
  });

  it('creates each worker in its own new workspace with --no-focus and never splits', async () => {
    const a = await host.createPane(spec(['sh', '-c', 'echo one; sleep 30']));
    const b = await host.createPane({ ...spec(['sh', '-c', 'echo two; sleep 30']), name: 'worker-2' });
    expect(a.paneId).not.toBe(b.paneId);
    const creates = commandLines().filter((argv) => argv[0] === 'workspace' && argv[1] === 'create');
    expect(creates).toHaveLength(2);
    for (const argv of creates) expect(argv).toContain('--no-focus');
    expect(commandLines().some((argv) => argv.includes('split'))).toBe(false);
    const listed = await host.list();
    expect(listed.ok && listed.panes.map((p) => p.name).sort()).toEqual(['worker-1', 'worker-2']);
  });

  it('reads the screen over the socket through source visible only, and a herdr error is a failed read', async () => {
    const pane = await host.createPane(spec(['sh', '-c', 'printf "hello from the pane\\n"; sleep 30']));
    await waitFor(async () => (await screenText(pane.paneId)).includes('hello from the pane'), { what: 'the pane output on screen' });
    const missing = await host.readVisible('w99:p1');
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.error).toContain('pane_not_found');
    const reads = socketRequests('pane.read');
    expect(reads.length).toBeGreaterThan(1);
    for (const { params } of reads) {
      expect(params.source).toBe('visible');
      expect(JSON.stringify(params)).not.toContain('recent');
    }
    // No process per read: the CLI never read a pane.
    expect(commandLines().some((argv) => argv[1] === 'read')).toBe(false);
  });

  it('reports the exit status of the program through the exited event', async () => {
    const pane = await host.createPane(spec(['sh', '-c', 'read line; exit 7']));
    const exited = waitForEvent<PaneEvent>((l) => host.subscribe(pane.paneId, l), (e) => e.type === 'exited', { what: 'exited', timeoutMs: 20_000 });
    await host.sendText(pane.paneId, 'go');
    expect(await exited).toEqual({ type: 'exited', code: 7 });
    const listed = await host.list();
    expect(listed.ok && listed.panes.find((p) => p.paneId === pane.paneId)).toMatchObject({ alive: false, exitCode: 7 });
  });

  it('starts a program without typing its environment: no value reaches the screen or the scrollback', async () => {
    const pane = await host.createPane(spec(['sh', '-c', 'echo "secret is set: ${KH_SECRET:+yes}"; sleep 30'], { KH_SECRET: 'sekrit-value-123' }));
    await waitFor(async () => (await screenText(pane.paneId)).includes('secret is set: yes'), { what: 'the program seeing its variable' });
    const scrollback = await host.readScrollback(pane.paneId, 200);
    expect(scrollback.ok && scrollback.text).not.toContain('sekrit-value-123');
    expect(await screenText(pane.paneId)).not.toContain('sekrit-value-123');
    const typed = commandLines().filter((argv) => argv[1] === 'run');
    expect(typed).toEqual([['pane', 'run', pane.paneId, ' eval "$KINGSHAND_LAUNCH"']]);
  });

  it('sends one key per pane.send_keys request', async () => {
    const pane = await host.createPane(spec(['sh', '-c', 'stty raw -echo; echo keys-ready; dd bs=1 count=3 2>/dev/null | od -c; sleep 30']));
    await waitFor(async () => /^keys-ready/m.test(await screenText(pane.paneId)), { what: 'the raw-mode reader' });
    for (const key of [{ char: 'a' }, 'tab', { char: 'b' }] as const) await host.sendKey(pane.paneId, key);
    await waitFor(async () => /a\s+\\t\s+b/.test(await screenText(pane.paneId)), { what: 'the three keys echoed by od', timeoutMs: 15_000 });
    const keyCalls = socketRequests('pane.send_keys');
    expect(keyCalls.map((r) => r.params.keys)).toEqual([['a'], ['tab'], ['b']]);
  });

  it('when the server goes away, reads fail and the pane reports an exit with unknown status', async () => {
    const pane = await host.createPane(spec(['sh', '-c', 'echo alive; sleep 60']));
    await waitFor(async () => (await screenText(pane.paneId)).includes('alive'), { what: 'the program running' });
    const exited = waitForEvent<PaneEvent>((l) => host.subscribe(pane.paneId, l), (e) => e.type === 'exited', { what: 'exited after the server stopped' });
    expect(double.cli(['server', 'stop']).code).toBe(0);
    expect(await exited).toEqual({ type: 'exited', code: null });
    const read = await host.readVisible(pane.paneId);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.error).toContain('server_not_running');
    expect(await host.serverState()).toEqual({ state: 'stopped' });
  });

  it('refuses a pane size the server cannot give, before creating anything', async () => {
    await expect(host.createPane({ ...spec(['true']), cols: 80 })).rejects.toThrow(/sizes every pane from its server config/);
    expect(commandLines().some((a) => a[0] === 'workspace')).toBe(false);
  });

  it('still announces screen changes by a bounded poll when herdr cannot observe terminals', async () => {
    const polling = createHerdrHost({ ...double.hostOptions(), env: { ...double.env, HERDR_DOUBLE_WITHOUT_OBSERVE: '1' } });
    try {
      const pane = await polling.createPane(spec(['sh', '-c', 'read line; echo "got $line"; sleep 30']));
      const changed = waitForEvent<PaneEvent>((l) => polling.subscribe(pane.paneId, l), (e) => e.type === 'changed', { what: 'changed by poll' });
      await polling.sendText(pane.paneId, 'ping');
      await changed;
      await waitFor(async () => (await screenText(pane.paneId)).includes('got ping'), { what: 'the echo' });
    } finally {
      await polling.dispose();
    }
  });
});

describe('herdr agent start', () => {
  beforeEach(async () => {
    await host.ensureServer();
  });

  it('re-reads with agent get when agent start fails, and keeps the agent that did register', async () => {
    installClaudeShim(double.binDir); // no --skip-trust: the folder-trust dialog blocks startup
    const pane = await host.createPane(spec(['claude']));
    const lines = commandLines();
    const start = lines.findIndex((a) => a[0] === 'agent' && a[1] === 'start');
    expect(lines[start]).not.toContain('--');
    expect(lines.slice(start + 1).filter((a) => a[0] === 'agent' && a[1] === 'get')).toEqual([['agent', 'get', 'worker-1']]);
    await waitFor(async () => /trust/i.test(await screenText(pane.paneId)), { what: 'the trust dialog on screen' });
  });

  it('does not re-read when agent start succeeds', async () => {
    installClaudeShim(double.binDir, ['--skip-trust']);
    const pane = await host.createPane(spec(['claude']));
    expect(commandLines().some((a) => a[0] === 'agent' && a[1] === 'get')).toBe(false);
    await waitFor(async () => (await screenText(pane.paneId)).includes('\u276f'), { what: 'the input box' });
  });

  it("throws herdr's code when the agent never registered, and leaves no pane behind", async () => {
    installFailingClaude(double.binDir, 3);
    await expect(host.createPane(spec(['claude']))).rejects.toThrow(/agent start: agent_start_failed/);
    const listed = await host.list();
    expect(listed).toEqual({ ok: true, panes: [] });
  });
});
