/**
 * Rules specific to the tmux host: its private server, three-valued server state, a strict
 * list, a server started earlier never leaking its environment, and panes outliving dispose().
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTmuxHost, type TmuxHost } from '../../io/terminal/tmux/tmux-host.ts';
import { makeTempDir, waitFor } from '../helpers/temp.ts';
import { screenText, waitForExit, waitForReading } from './mock-worker.ts';

describe('tmux host server', () => {
  const hosts: TmuxHost[] = [];
  const dirs: Array<() => void> = [];
  afterEach(async () => {
    for (const h of hosts.splice(0)) await h.killServer().catch(() => {});
    for (const c of dirs.splice(0)) c();
  });

  function fresh(label: string): { host: TmuxHost; dir: string } {
    const d = makeTempDir(label);
    dirs.push(d.cleanup);
    const host = createTmuxHost({ socketPath: join(d.path, 'state', 'tmux.sock') });
    hosts.push(host);
    return { host, dir: d.path };
  }

  it('server state is stopped before the first start, running after, stopped after kill', async () => {
    const { host } = fresh('tmux-state');
    expect(await host.serverState()).toEqual({ state: 'stopped' });
    expect(await host.list()).toEqual({ ok: true, panes: [] });
    await host.ensureServer();
    expect(await host.serverState()).toEqual({ state: 'running' });
    // The server stays up with no worker at all (exit-empty off): "running" means something.
    expect(await host.list()).toEqual({ ok: true, panes: [] });
    await host.killServer();
    expect(await host.serverState()).toEqual({ state: 'stopped' });
  });

  it('a start while the server before is still going away (the socket answers, then closes) tries again and starts a server', async () => {
    const { host, dir } = fresh('tmux-going');
    const socket = join(dir, 'state', 'tmux.sock');
    mkdirSync(join(dir, 'state'), { recursive: true, mode: 0o700 });
    // What a killed server does to the next clients while it goes: takes each connection and
    // drops it. Under load that lasted longer than three quick tries (a far server, in CI):
    // here it goes only once it has dropped four.
    let taken = 0;
    const going = createServer((c) => {
      taken++;
      c.destroy();
      if (taken === 4) going.close();
    });
    await new Promise<void>((r) => going.listen(socket, r));
    await host.ensureServer();
    expect(taken, 'every start until the going server went reached it').toBe(4);
    expect(await host.serverState()).toEqual({ state: 'running' });
  });

  it('a probe that fails for another reason is unknown, never stopped, and list() is an error, never empty', async () => {
    const d = makeTempDir('tmux-unknown');
    dirs.push(d.cleanup);
    const notADir = join(d.path, 'file');
    writeFileSync(notADir, '');
    const broken = createTmuxHost({ socketPath: join(notADir, 'tmux.sock') });
    const state = await broken.serverState();
    expect(state.state).toBe('unknown');
    expect(state.state === 'unknown' && state.detail).toMatch(/Not a directory/);
    const listed = await broken.list();
    expect(listed.ok).toBe(false);

    const missingBinary = createTmuxHost({ socketPath: join(d.path, 'tmux.sock'), tmuxBin: join(d.path, 'no-such-tmux') });
    expect((await missingBinary.serverState()).state).toBe('unknown');
    expect((await missingBinary.list()).ok).toBe(false);
  });

  it('a server started earlier does not hand its environment to a new worker', async () => {
    const { host, dir } = fresh('tmux-stale-env');
    process.env.KH_TEST_STALE_SERVER_VAR = 'from the day the server started';
    try {
      await host.ensureServer(); // the server process now carries the variable
    } finally {
      delete process.env.KH_TEST_STALE_SERVER_VAR;
    }
    const out = join(dir, 'env.json');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', KH_FRESH: 'from this dispatch' };
    const pane = await host.createPane({
      name: 'env-probe',
      cwd: dir,
      env,
      argv: [process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.env))`],
    });
    expect(await waitForExit(host, pane.paneId, 'the env probe')).toBe(0);
    const seen = JSON.parse(readFileSync(out, 'utf8')) as Record<string, string>;
    expect(seen).toEqual(env);
    expect(seen).not.toHaveProperty('TMUX');
  });

  it("no process command line keeps the worker's environment (API keys) once the worker runs", async () => {
    const { host, dir } = fresh('tmux-argv');
    const secret = `kh-secret-${process.pid}-${Date.now()}`;
    const pane = await host.createPane({
      name: 'secretive',
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ANTHROPIC_API_KEY: secret },
      argv: ['cat'],
    });
    expect(await host.attach(pane.paneId)).toMatchObject({ alive: true });
    const commandLines = execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    expect(commandLines).toContain(dir); // the server's own command line names the socket…
    expect(commandLines).not.toContain(secret); // …but not what the worker was given
  });

  it('dispose() stops watching but leaves the worker running; a new host re-attaches to it', async () => {
    const { host, dir } = fresh('tmux-dispose');
    const pane = await host.createPane({
      name: 'cat-worker',
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color' },
      argv: ['cat'],
    });
    await host.dispose();

    const again = createTmuxHost({ socketPath: host.socketPath });
    hosts.push(again);
    const listed = await again.list();
    expect(listed.ok && listed.panes).toEqual([expect.objectContaining({ paneId: pane.paneId, name: 'cat-worker', alive: true })]);
    expect(await again.attach(pane.paneId)).toMatchObject({ paneId: pane.paneId, alive: true });
    await again.sendText(pane.paneId, 'still here; and well;');
    await waitForReading(again, pane.paneId, (_r, s) => screenText(s).split('\n').filter((l) => l === 'still here; and well;').length === 2, 'cat echoing the text back');
    expect(await again.attach('%9999')).toBeNull();
  });

  it('a worker whose pane is killed behind our back is reported as exited with an unknown status', async () => {
    const { host, dir } = fresh('tmux-killed');
    const pane = await host.createPane({ name: 'victim', cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, argv: ['cat'] });
    const exit = waitForExit(host, pane.paneId, 'the exit of the killed session');
    const other = createTmuxHost({ socketPath: host.socketPath });
    await other.close(pane.paneId); // another process closes it: our control client sees its window go
    expect(await exit).toBeNull();
  });

  it('killing only a worker\'s session by hand leaves the worker running, listed, and still pushing changes', async () => {
    const { host, dir } = fresh('tmux-session-killed');
    const pane = await host.createPane({ name: 'survivor', cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, argv: ['cat'] });
    // The window is linked into the monitor session too, so it outlives its own session.
    execFileSync('tmux', ['-S', host.socketPath, 'kill-session', '-t', 'survivor']);
    const listed = await host.list();
    expect(listed.ok && listed.panes).toEqual([expect.objectContaining({ paneId: pane.paneId, name: 'survivor', alive: true })]);
    const changed = new Promise<void>((resolve) => {
      const off = host.subscribe(pane.paneId, (e) => {
        if (e.type === 'changed') {
          off();
          resolve();
        }
      });
    });
    await host.sendText(pane.paneId, 'after the session went');
    await waitForReading(host, pane.paneId, (_r, s) => screenText(s).includes('after the session went'), 'cat echoing after its session was killed');
    await changed;
  });

  it('the monitor session killed by hand: the host reconnects, relinks, and the worker still pushes changes', async () => {
    const d = makeTempDir('tmux-monitor-killed');
    dirs.push(d.cleanup);
    const dir = d.path;
    const notices: Array<[string, Record<string, unknown>]> = [];
    const host = createTmuxHost({ socketPath: join(dir, 'state', 'tmux.sock'), onNotice: (msg, fields) => notices.push([msg, fields]) });
    hosts.push(host);
    const pane = await host.createPane({ name: 'steady', cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, argv: ['cat'] });
    let exited = false;
    host.subscribe(pane.paneId, (e) => {
      if (e.type === 'exited') exited = true;
    });
    const tmux = (...args: string[]) => execFileSync('tmux', ['-S', host.socketPath, ...args], { encoding: 'utf8' });
    tmux('kill-session', '-t', '=kh-monitor');
    // Bounded wait, on tmux's own state: the monitor is back with the worker's window linked in.
    const linked = () => tmux('list-windows', '-a', '-F', '#{session_name} #{window_id}').split('\n').filter((l) => l.startsWith('kh-monitor ')).length === 2;
    await waitFor(linked, { what: 'the monitor session to be recreated with the worker linked', timeoutMs: 15_000, intervalMs: 50 });
    await host.sendText(pane.paneId, 'after the reconnect');
    await waitForReading(host, pane.paneId, (_r, s) => screenText(s).split('\n').filter((l) => l === 'after the reconnect').length === 2, 'cat echoing after the monitor came back');
    expect(tmux('list-clients', '-F', '#{client_control_mode}').trim()).toBe('1');
    expect(exited).toBe(false);
    // The log says what happened, with tmux's own reason.
    expect(notices.map(([msg]) => msg)).toEqual(['tmux control client ended', 'tmux control client reconnected']);
    expect(notices[0]![1]).toMatchObject({ reason: expect.stringMatching(/\S/), watched: 1 });
  });

  it('the server killed behind our back: every watched worker is reported exited, status unknown', async () => {
    const { host, dir } = fresh('tmux-server-killed');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
    const panes = await Promise.all(['a', 'b'].map((name) => host.createPane({ name, cwd: dir, env, argv: ['cat'] })));
    const exits = panes.map((p) => waitForExit(host, p.paneId, `the exit of ${p.name} when the server died`));
    execFileSync('tmux', ['-S', host.socketPath, 'kill-server']);
    expect(await Promise.all(exits)).toEqual([null, null]);
  });

  it('the host keeps one control client, however many workers it watches', async () => {
    const { host, dir } = fresh('tmux-one-client');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
    await Promise.all([0, 1, 2, 3, 4].map((i) => host.createPane({ name: `w${i}`, cwd: dir, env, argv: ['cat'] })));
    const clients = execFileSync('tmux', ['-S', host.socketPath, 'list-clients', '-F', '#{client_control_mode}'], { encoding: 'utf8' });
    expect(clients.trim().split('\n')).toEqual(['1']);
    expect((await host.list()).ok && (await host.list() as { panes: unknown[] }).panes).toHaveLength(5);
  });
});
