/**
 * The herdr host against the herdr double (a real server hosting real ptys): the behaviours that
 * are herdr-specific and not covered by the shared host contract.
 *
 * One server serves the file, as herdr serves a supervisor: every test closes the panes it made,
 * and reads the command lines and socket requests sent since it began. Only the tests about the
 * server's own life (its state, its going away) get a server of their own.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHerdrHost, type HerdrHost } from '../../io/terminal/herdr/herdr-host.ts';
import type { PaneEvent, PaneSpec, TerminalHost } from '../../io/terminal/types.ts';
import { installClaudeShim, installFailingClaude, makeHerdrDouble, type HerdrDouble } from '../doubles/herdr/fixture.ts';
import { waitForEvent } from '../helpers/temp.ts';
import { screenText, waitForReading } from './mock-worker.ts';

interface SocketRequest {
  id: string;
  method: string;
  params: Record<string, unknown>;
}

interface World {
  double: HerdrDouble;
  host: HerdrHost;
  /** From now on, commandLines() and socketRequests() show only what is sent after this. */
  mark(): void;
  /** Every herdr command line the host ran since the mark, in order. */
  commandLines(): string[][];
  /** Every socket request the host sent itself (not through the CLI) since the mark, in order. */
  socketRequests(method: string): SocketRequest[];
  close(): Promise<void>;
}

function makeWorld(label: string, extraEnv: Record<string, string> = {}): World {
  const double = makeHerdrDouble(label);
  const argvLog = join(double.dir, 'argv.log');
  const requestLog = join(double.dir, 'requests.log');
  const env = { ...double.env, HERDR_DOUBLE_ARGV_LOG: argvLog, HERDR_DOUBLE_REQUEST_LOG: requestLog, ...extraEnv };
  const host = createHerdrHost({ ...double.hostOptions(), env });
  const lines = (path: string): string[] => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : []);
  let marks = { argv: 0, requests: 0 };
  return {
    double,
    host,
    mark: () => {
      marks = { argv: lines(argvLog).length, requests: lines(requestLog).length };
    },
    commandLines: () => lines(argvLog).slice(marks.argv).map((l) => JSON.parse(l) as string[]),
    socketRequests: (method) =>
      lines(requestLog).slice(marks.requests).map((l) => JSON.parse(l) as SocketRequest)
        .filter((r) => r.method === method && !String(r.id).startsWith('cli:')),
    async close() {
      await host.dispose();
      await double.cleanup();
    },
  };
}

const spec = (double: HerdrDouble, argv: string[], extraEnv: Record<string, string> = {}): PaneSpec => ({
  name: 'worker-1',
  cwd: double.dir,
  env: { PATH: `${double.binDir}:${process.env.PATH}`, HOME: double.dir, TERM: 'xterm-256color', LANG: 'C.UTF-8', ...extraEnv },
  argv,
});

/** Resolves once the pane's screen passes `test`: read now and after every change, never on a timer. */
const screenShows = (host: TerminalHost, paneId: string, test: (text: string) => boolean, what: string) =>
  waitForReading(host, paneId, (_r, screen) => test(screenText(screen)), what);

describe('herdr server state', () => {
  let own: World;
  beforeEach(() => {
    own = makeWorld('herdr-host-state');
  });
  afterEach(async () => {
    await own.close();
  });

  it('is stopped before a server runs, running after ensureServer, stopped after stopServer', async () => {
    const { host } = own;
    expect(await host.serverState()).toEqual({ state: 'stopped' });
    await host.ensureServer();
    expect(await host.serverState()).toEqual({ state: 'running' });
    await host.ensureServer(); // idempotent: no second server
    expect(own.commandLines().filter((a) => a[0] === 'server' && a.length === 1)).toHaveLength(1);
    await host.stopServer();
    expect(await host.serverState()).toEqual({ state: 'stopped' });
  });

  it('is unknown, not stopped, when herdr cannot be run', async () => {
    const missing = createHerdrHost({ ...own.double.hostOptions(), herdrBin: join(own.double.dir, 'no-such-herdr') });
    const state = await missing.serverState();
    expect(state.state).toBe('unknown');
    await expect(missing.ensureServer()).rejects.toThrow(/cannot tell whether a herdr server runs/);
  });

  it('when the server goes away, reads fail and the pane reports an exit with unknown status', async () => {
    const { host, double } = own;
    await host.ensureServer();
    const pane = await host.createPane(spec(double, ['sh', '-c', 'echo alive; sleep 60']));
    await screenShows(host, pane.paneId, (t) => t.includes('alive'), 'the program running');
    const exited = waitForEvent<PaneEvent>((l) => host.subscribe(pane.paneId, l), (e) => e.type === 'exited', { what: 'exited after the server stopped' });
    expect(double.cli(['server', 'stop']).code).toBe(0);
    expect(await exited).toEqual({ type: 'exited', code: null });
    const read = await host.readVisible(pane.paneId);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.error).toContain('server_not_running');
    expect(await host.serverState()).toEqual({ state: 'stopped' });
  });
});

describe('herdr pane labels', () => {
  let own: World;
  afterEach(async () => {
    await own.close();
  });

  it('labels a pane over the socket, and through the CLI when the socket rename did not take', async () => {
    own = makeWorld('herdr-host-rename', { HERDR_DOUBLE_RENAME_PARAM: 'name' });
    await own.host.ensureServer();
    const pane = await own.host.createPane(spec(own.double, ['sh', '-c', 'sleep 30']));
    expect(own.socketRequests('pane.rename').map((r) => r.params)).toEqual([{ pane_id: pane.paneId, label: 'worker-1' }]);
    expect(own.commandLines().filter((argv) => argv[1] === 'rename')).toEqual([['pane', 'rename', pane.paneId, 'worker-1']]);
    const listed = await own.host.list();
    expect(listed.ok && listed.panes.map((p) => p.name)).toEqual(['worker-1']);
  });
});

describe('on one herdr server', () => {
  let world: World;
  let host: HerdrHost;
  let double: HerdrDouble;

  beforeAll(async () => {
    world = makeWorld('herdr-host');
    ({ host, double } = world);
    await host.ensureServer();
  });
  afterAll(async () => {
    await world?.close();
  });
  beforeEach(() => {
    world.mark();
  });
  afterEach(async () => {
    // Every pane a test made goes, so the next one starts from an empty server.
    const listed = await host.list();
    if (listed.ok) for (const p of listed.panes) await host.close(p.paneId);
  });

  describe('herdr panes', () => {
    it('creates each worker in its own new workspace with --no-focus and never splits', async () => {
      const a = await host.createPane(spec(double, ['sh', '-c', 'echo one; sleep 30']));
      const b = await host.createPane({ ...spec(double, ['sh', '-c', 'echo two; sleep 30']), name: 'worker-2' });
      expect(a.paneId).not.toBe(b.paneId);
      const creates = world.commandLines().filter((argv) => argv[0] === 'workspace' && argv[1] === 'create');
      expect(creates).toHaveLength(2);
      for (const argv of creates) expect(argv).toContain('--no-focus');
      expect(world.commandLines().some((argv) => argv.includes('split'))).toBe(false);
      const listed = await host.list();
      expect(listed.ok && listed.panes.map((p) => p.name).sort()).toEqual(['worker-1', 'worker-2']);
      // The names were given over the socket: the CLI's rename is only the fallback.
      expect(world.socketRequests('pane.rename').map((r) => r.params.label)).toEqual(['worker-1', 'worker-2']);
      expect(world.commandLines().some((argv) => argv[0] === 'pane' && argv[1] === 'rename')).toBe(false);
    });

    it('reads the screen over the socket through source visible only, and a herdr error is a failed read', async () => {
      const pane = await host.createPane(spec(double, ['sh', '-c', 'printf "hello from the pane\\n"; sleep 30']));
      await screenShows(host, pane.paneId, (t) => t.includes('hello from the pane'), 'the pane output on screen');
      const missing = await host.readVisible('w99:p1');
      expect(missing.ok).toBe(false);
      expect(!missing.ok && missing.error).toContain('pane_not_found');
      const reads = world.socketRequests('pane.read');
      expect(reads.length).toBeGreaterThan(1);
      for (const { params } of reads) {
        expect(params.source).toBe('visible');
        expect(JSON.stringify(params)).not.toContain('recent');
      }
      // No process per read: the CLI never read a pane.
      expect(world.commandLines().some((argv) => argv[1] === 'read')).toBe(false);
    });

    it('reports the exit status of the program through the exited event', async () => {
      const pane = await host.createPane(spec(double, ['sh', '-c', 'read line; exit 7']));
      const exited = waitForEvent<PaneEvent>((l) => host.subscribe(pane.paneId, l), (e) => e.type === 'exited', { what: 'exited', timeoutMs: 20_000 });
      await host.sendText(pane.paneId, 'go');
      expect(await exited).toEqual({ type: 'exited', code: 7 });
      const listed = await host.list();
      expect(listed.ok && listed.panes.find((p) => p.paneId === pane.paneId)).toMatchObject({ alive: false, exitCode: 7 });
    });

    it('starts a program without typing its environment: no value reaches the screen or the scrollback', async () => {
      const pane = await host.createPane(spec(double, ['sh', '-c', 'echo "secret is set: ${KH_SECRET:+yes}"; sleep 30'], { KH_SECRET: 'sekrit-value-123' }));
      const seen = await screenShows(host, pane.paneId, (t) => t.includes('secret is set: yes'), 'the program seeing its variable');
      const scrollback = await host.readScrollback(pane.paneId, 200);
      expect(scrollback.ok && scrollback.text).not.toContain('sekrit-value-123');
      expect(screenText(seen.screen)).not.toContain('sekrit-value-123');
      const typed = world.socketRequests('pane.send_input');
      expect(typed.map((r) => r.params)).toEqual([{ pane_id: pane.paneId, text: ' eval "$KINGSHAND_LAUNCH"', keys: ['enter'] }]);
    });

    it('sends one key per pane.send_keys request', async () => {
      const pane = await host.createPane(spec(double, ['sh', '-c', 'stty raw -echo; echo keys-ready; dd bs=1 count=3 2>/dev/null | od -c; sleep 30']));
      // At the end of its line, not its start: typed before the shell drew its prompt, the launch
      // line is echoed first and the prompt lands in front of the program's output ("# keys-ready").
      await screenShows(host, pane.paneId, (t) => /keys-ready$/m.test(t), 'the raw-mode reader');
      for (const key of [{ char: 'a' }, 'tab', { char: 'b' }] as const) await host.sendKey(pane.paneId, key);
      await screenShows(host, pane.paneId, (t) => /a\s+\\t\s+b/.test(t), 'the three keys echoed by od');
      const keyCalls = world.socketRequests('pane.send_keys');
      expect(keyCalls.map((r) => r.params.keys)).toEqual([['a'], ['tab'], ['b']]);
    });

    it('refuses a pane size the server cannot give, before creating anything', async () => {
      await expect(host.createPane({ ...spec(double, ['true']), cols: 80 })).rejects.toThrow(/sizes every pane from its server config/);
      expect(world.commandLines().some((a) => a[0] === 'workspace')).toBe(false);
    });

    it('still announces screen changes by a bounded poll when herdr cannot observe terminals', async () => {
      const polling = createHerdrHost({ ...double.hostOptions(), env: { ...double.env, HERDR_DOUBLE_WITHOUT_OBSERVE: '1' } });
      try {
        const pane = await polling.createPane(spec(double, ['sh', '-c', 'read line; echo "got $line"; sleep 30']));
        const changed = waitForEvent<PaneEvent>((l) => polling.subscribe(pane.paneId, l), (e) => e.type === 'changed', { what: 'changed by poll' });
        await polling.sendText(pane.paneId, 'ping');
        await changed;
        await screenShows(polling, pane.paneId, (t) => t.includes('got ping'), 'the echo');
      } finally {
        await polling.dispose();
      }
    });
  });

  describe('herdr agent start', () => {
    it('re-reads with agent get when agent start fails, and keeps the agent that did register', async () => {
      installClaudeShim(double.binDir); // no --skip-trust: the folder-trust dialog blocks startup
      const pane = await host.createPane(spec(double, ['claude']));
      const lines = world.commandLines();
      const start = lines.findIndex((a) => a[0] === 'agent' && a[1] === 'start');
      expect(lines[start]).not.toContain('--');
      expect(lines.slice(start + 1).filter((a) => a[0] === 'agent' && a[1] === 'get')).toEqual([['agent', 'get', 'worker-1']]);
      await screenShows(host, pane.paneId, (t) => /trust/i.test(t), 'the trust dialog on screen');
    });

    it('does not re-read when agent start succeeds', async () => {
      installClaudeShim(double.binDir, ['--skip-trust']);
      const pane = await host.createPane(spec(double, ['claude']));
      expect(world.commandLines().some((a) => a[0] === 'agent' && a[1] === 'get')).toBe(false);
      await screenShows(host, pane.paneId, (t) => t.includes('\u276f'), 'the input box');
    });

    it("throws herdr's code when the agent never registered, and leaves no pane behind", async () => {
      installFailingClaude(double.binDir, 3);
      await expect(host.createPane(spec(double, ['claude']))).rejects.toThrow(/agent start: agent_start_failed/);
      const listed = await host.list();
      expect(listed).toEqual({ ok: true, panes: [] });
    });
  });
});
