/**
 * The herdr double speaks herdr's documented CLI contract (reference/herdr.md §1): if it drifted
 * from the reference, the herdr backend's tests would prove nothing. Driven through its CLI and
 * its socket directly, never through our adapter.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installClaudeShim, makeHerdrDouble, type HerdrDouble } from '../doubles/herdr/fixture.ts';
import { waitFor } from '../helpers/temp.ts';
// @ts-expect-error the double is plain JavaScript without types
import { Pane } from '../doubles/herdr/pane.mjs';
// @ts-expect-error the double is plain JavaScript without types
import { readPane } from '../doubles/herdr/screen.mjs';

let double: HerdrDouble;
let server: ChildProcess | null = null;

const json = (text: string) => JSON.parse(text.trim());

beforeAll(() => {
  double = makeHerdrDouble('herdr-double');
});

afterAll(async () => {
  await double.cleanup();
  if (server && server.exitCode === null) server.kill('SIGKILL');
});

describe('herdr double without a server', () => {
  it('status never fails on "not running": JSON with running false, exit 0', () => {
    const r = double.cli(['status', '--json']);
    expect(r.code).toBe(0);
    expect(json(r.stdout).server).toMatchObject({ status: 'not_running', running: false });
    const text = double.cli(['status']);
    expect(text.stdout).toMatch(/status: not running/);
  });

  it('other commands exit 1 with a server_not_running envelope on stderr', () => {
    const r = double.cli(['pane', 'list']);
    expect(r.code).toBe(1);
    const body = json(r.stderr);
    expect(body.error.code).toBe('server_not_running');
    expect(body.error.message).toContain(`no herdr server is running at ${double.socketPath}`);
  });

  it('usage errors exit 2 with a text hint, not JSON', () => {
    const r = double.cli(['pane', 'read']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("run 'herdr --help' for usage");
  });
});

describe('herdr double with a server', () => {
  let paneId: string;

  beforeAll(async () => {
    server = spawn(double.bin, ['server'], { env: double.env, stdio: 'ignore' });
    await waitFor(() => json(double.cli(['status', '--json']).stdout).server.running === true, { what: 'the double server' });
    installClaudeShim(double.binDir, ['--skip-trust']);
    const created = double.cli(['workspace', 'create', '--cwd', double.dir, '--label', 'probe', '--no-focus', '--env', `PATH=${double.binDir}:${process.env.PATH}`]);
    expect(created.code).toBe(0);
    const reply = json(created.stdout);
    expect(reply.id).toMatch(/^cli:/);
    expect(reply.result.type).toBe('workspace_created');
    expect(reply.result.workspace.workspace_id).toMatch(/^w\d+$/);
    expect(reply.result.tab.tab_id).toMatch(/^w\d+:t\d+$/);
    paneId = reply.result.root_pane.pane_id;
    expect(paneId).toMatch(/^w\d+:p\d+$/);
    // A pane with an idle shell has no agent.
    expect(reply.result.root_pane.agent_status).toBe('unknown');
  });

  it('refuses a second server on the same socket (exit 1)', () => {
    const r = double.cli(['server']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: herdr server is already running');
    expect(r.stderr).toContain(`api socket: ${double.socketPath}`);
  });

  it('prints reads as raw text and validates every key before writing any', async () => {
    expect(double.cli(['pane', 'send-text', paneId, 'echo typed-by-test']).code).toBe(0);
    const bad = double.cli(['pane', 'send-keys', paneId, 'enter', 'home']);
    expect(bad.code).toBe(1);
    expect(json(bad.stderr).error.code).toBe('invalid_params');
    // The valid `enter` before the invalid key was not written either: the line is still unsent.
    const before = double.cli(['pane', 'read', paneId, '--source', 'visible']).stdout;
    expect(before).not.toMatch(/^typed-by-test$/m);
    expect(double.cli(['pane', 'send-keys', paneId, 'enter']).code).toBe(0);
    await waitFor(() => /^typed-by-test$/m.test(double.cli(['pane', 'read', paneId, '--source', 'visible']).stdout), { what: 'the echo' });
    expect(double.cli(['pane', 'read', 'w99:p9', '--source', 'visible']).code).toBe(1);
  });

  it('validates agent start as documented', () => {
    const code = (args: string[]) => json(double.cli(['agent', 'start', ...args]).stderr).error.code;
    expect(code(['T-9001', '--kind', 'claude', '--pane', paneId])).toBe('invalid_agent_name');
    expect(code(['w', '--kind', 'vim', '--pane', paneId])).toBe('unsupported_agent_kind');
    expect(code(['w', '--kind', 'claude', '--pane', paneId, '--timeout', '3000'])).toBe('invalid_agent_timeout');
    expect(code(['w', '--kind', 'claude', '--pane', paneId, '--', 'a\nb'])).toBe('invalid_agent_argument');
    expect(code(['w', '--kind', 'claude', '--pane', 'w99:p1'])).toBe('agent_pane_not_found');
  });

  it('starts an agent, names it, and pushes pane.agent_status_changed over the socket', async () => {
    const events: Array<{ event: string; data: { agent_status?: string } }> = [];
    const socket = createConnection(double.socketPath);
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        events.push(JSON.parse(buffer.slice(0, nl)));
        buffer = buffer.slice(nl + 1);
      }
    });
    socket.write(`${JSON.stringify({ id: 'sub_1', method: 'events.subscribe', params: { subscriptions: [{ type: 'pane.agent_status_changed', pane_id: paneId }] } })}\n`);
    try {
      await waitFor(() => events.length > 0, { what: 'the subscription acknowledgement' });
      expect(events[0]).toMatchObject({ id: 'sub_1', result: { type: 'subscription_started' } });

      const started = double.cli(['agent', 'start', 'probe-agent', '--kind', 'claude', '--pane', paneId, '--timeout', '20000']);
      expect(started.stderr).toBe('');
      const result = json(started.stdout).result;
      expect(result.type).toBe('agent_started');
      expect(result.agent).toMatchObject({ name: 'probe-agent', agent: 'claude', pane_id: paneId, interactive_ready: true });
      expect(['idle', 'done']).toContain(result.agent.agent_status);
      // Managed starts come up idle, and every state change is pushed.
      await waitFor(() => events.some((e) => e.event === 'pane.agent_status_changed' && e.data.agent_status === 'idle'), { what: 'an idle status event' });

      const got = json(double.cli(['agent', 'get', 'probe-agent']).stdout).result;
      expect(got.type).toBe('agent_info');
      expect(got.agent.state_change_seq).toBeGreaterThan(0);
      expect(double.cli(['agent', 'read', 'probe-agent', '--source', 'visible']).stdout).toContain('\u276f');
    } finally {
      socket.destroy();
    }
  });
});

describe('herdr double frames', () => {
  it('sends a frame only once its bytes are on the screen a read returns', async () => {
    // A client reads the pane when a frame comes (ours does). A frame sent before the emulator had
    // parsed its bytes (xterm parses on a later tick, a long burst over several) left that read a
    // screen behind — under load a cleared pane — and a pane that then went quiet was not read
    // again. So: at the moment each frame is written to an observer, a read holds its bytes.
    const herd = { emit() {}, paneExited() {}, names: new Map(), nextSeq: () => 1 };
    const ids = { pane_id: 'w1:p1', terminal_id: 'term_1', workspace_id: 'w1', tab_id: 'w1:t1' };
    const pane = new Pane(herd, ids, { cwd: double.dir, env: { ...double.env, PS1: '$ ' }, cols: 80, rows: 24 });
    const marker = 'end-of-42-marker';
    let streamed = '';
    const screensAtFrames: string[] = [];
    const observer = {
      on() {},
      end() {},
      write(line: string) {
        const frame = JSON.parse(line);
        if (frame.full) return;
        streamed += Buffer.from(frame.bytes, 'base64').toString('utf8');
        if (streamed.includes(marker)) screensAtFrames.push(readPane(pane.term, { source: 'visible' }));
      },
    };
    try {
      pane.observe(observer);
      // Typed as arithmetic, so only the output holds the marker, never the echoed command.
      pane.write('printf "end-of-%s-marker\\n" $((40+2))\r');
      await waitFor(() => screensAtFrames.length > 0, { what: 'a frame holding the marker' });
      expect(screensAtFrames[0]).toContain(marker);
    } finally {
      await pane.kill();
    }
  });
});
