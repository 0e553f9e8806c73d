/**
 * `hand daemon stop` leaves nothing dead behind: with a live worker, the private tmux server and
 * the worker keep running and the answer says how many and how to stop them; with none live, the
 * tmux server stops with the daemon.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatchSettled, useCliWorld } from '../helpers/cli-world.ts';
import { waitFor } from '../helpers/temp.ts';

const makeWorld = useCliWorld();

/** true when the private tmux server answers. */
function tmuxServerUp(home: string): Promise<boolean> {
  return new Promise((resolve) => execFile('tmux', ['-S', join(home, 'tmux.sock'), 'list-sessions'], (err) => resolve(!err)));
}

/** The control clients attached to the private server (their pids). */
function controlClients(home: string): Promise<string[]> {
  return new Promise((resolve, reject) =>
    execFile('tmux', ['-S', join(home, 'tmux.sock'), 'list-clients', '-F', '#{client_control_mode} #{client_pid}'], (err, out) =>
      err ? reject(err) : resolve(out.split('\n').filter((l) => l.startsWith('1 ')).map((l) => l.slice(2)))),
  );
}

/**
 * The daemon has finished stopping: none answers and none holds the home. Its socket stops taking
 * calls at the start of its shutdown, while it still lets go of tmux; a status then says a daemon
 * holds the home but does not answer (its pid in the error), which is not gone yet.
 */
async function daemonGone(w: { hand: (args: string[]) => Promise<{ code: number | null; json: unknown }> }): Promise<void> {
  await waitFor(async () => {
    const r = await w.hand(['daemon', 'status', '--json']);
    return (r.code === 3 && (r.json as { error?: { pid?: number } } | null)?.error?.pid === undefined) || undefined;
  }, { what: 'the daemon to be gone (no answer, no holder)', timeoutMs: 15_000 });
}

describe('hand daemon stop', () => {
  it('keeps a live worker and its tmux server, says so; stops the server once no worker lives', async () => {
    const w = await makeWorld('daemon-stop');
    await dispatchSettled(w, 's1', 'Say hi.');

    const withLive = await w.hand(['daemon', 'stop']);
    expect(withLive.code, withLive.stderr).toBe(0);
    expect(withLive.stdout).toMatch(/1 worker\(s\) keep running: s1\. Stop each with hand stop <id>/);
    await daemonGone(w);
    expect(await tmuxServerUp(w.home)).toBe(true);
    // The stopped daemon let go of the server: no control client of its stays attached (one left
    // attached in a process that lives on reconnected later, and started a server after the
    // next daemon had killed this one).
    expect(await controlClients(w.home)).toEqual([]);

    // The next start re-attaches the worker; once it is stopped, a daemon stop takes the server too.
    expect((await w.hand(['stop', 's1', '--json'])).code).toBe(0);
    const idle = await w.hand(['daemon', 'stop', '--json']);
    expect(idle.code, idle.stderr).toBe(0);
    expect(idle.json).toMatchObject({ liveWorkers: [], tmuxServer: 'stopped' });
    await waitFor(async () => !(await tmuxServerUp(w.home)) || undefined, { what: 'the private tmux server to stop with the daemon', timeoutMs: 15_000 });
  });

  it('with no worker ever dispatched the daemon stops and no tmux server is left', async () => {
    const w = await makeWorld('daemon-stop-empty');
    expect((await w.hand(['daemon', 'start'])).code).toBe(0);
    const r = await w.hand(['daemon', 'stop']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no live workers');
    await daemonGone(w);
    expect(await tmuxServerUp(w.home)).toBe(false);
  });

  it('separates live workers from gate-held ones (no terminal yet): only a live one keeps running', async () => {
    const w = await makeWorld('daemon-stop-gated');
    await dispatchSettled(w, 'live1', 'Say hi.');
    // yolo off from here: the next worker rests at its brief gate with no worktree or terminal.
    expect((await w.hand(['annex', w.repo, '--json'])).code).toBe(0);
    const g = await w.hand(['dispatch', 'held1', '--repo', w.repo, '--brief', w.brief('held1', 'Wait.'), '--agent', 'mock', '--json']);
    expect(g.json.gated).toBe(true);

    const r = await w.hand(['daemon', 'stop']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('1 worker(s) keep running: live1.');
    expect(r.stdout).not.toMatch(/keep running: [^.]*held1/);
    expect(r.stdout).toContain('1 worker(s) wait at their brief gate with no terminal yet: held1');
    await daemonGone(w);
    expect((await w.hand(['stop', 'live1', '--json'])).code).toBe(0);
  });
});
