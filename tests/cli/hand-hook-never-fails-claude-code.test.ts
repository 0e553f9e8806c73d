/**
 * `hand hook <event>` is what a worker's Claude Code hooks run (dispatch writes them into the
 * worktree's settings.local.json). It never blocks or fails Claude Code: it exits 0 within its
 * bound whether or not a daemon is there, and a note the daemon could not take is queued (0600)
 * and applied when the daemon next starts — hooks survive a daemon restart — or, when the daemon
 * was up but did not answer in time, within a second while it runs.
 * The hook is run here as Claude Code runs it: the payload on stdin, HAND_WORKER_ID and
 * HAND_HOME in the environment, no --home.
 */
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HAND_BIN, makeCliWorld, type CliWorld } from './cli-harness.ts';
import { makeTempDir, waitFor } from '../helpers/temp.ts';
import { hookQueuePath } from '../../contract/hook-note.ts';
import { appendToQueue } from '../../cli/commands/hook.ts';
import { hookCapability } from '../../io/agent/claude/hook-capability.ts';

let world: CliWorld | null = null;
const temps: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await world?.cleanup();
  world = null;
  for (const t of temps.splice(0)) t.cleanup();
});

/** Runs `hand hook <event>` like Claude Code: payload on stdin; resolves with the exit code and time taken. */
function runHook(event: string, payload: string, env: Record<string, string>): Promise<{ code: number | null; ms: number; stdout: string }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HAND_BIN, 'hook', event, '--json'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hand hook ${event} did not exit within 15 s`));
    }, 15_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, ms: Date.now() - started, stdout });
    });
    child.stdin.end(payload);
  });
}

const asks = JSON.stringify({
  session_id: 's-1', transcript_path: '/nowhere/s-1.jsonl', cwd: '/tmp', hook_event_name: 'Notification',
  message: 'Claude needs your permission to use Bash', notification_type: 'permission_prompt',
});
const baseEnv = (): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'HAND_HOME' && k !== 'HAND_WORKER_ID') env[k] = v;
  return env;
};

describe('hand hook never blocks or fails Claude Code', () => {
  it('with no daemon it exits 0 fast and queues the note in a 0600 file', async () => {
    const tmp = makeTempDir('hook-nodaemon');
    temps.push(tmp);
    // A state directory whose daemon is down (only a kingshand state directory takes the queue).
    writeFileSync(join(tmp.path, 'fleet.db'), '');
    const r = await runHook('Notification', asks, { ...baseEnv(), HAND_WORKER_ID: 'w1', HAND_HOME: tmp.path });
    expect(r.code).toBe(0);
    // Node's start-up dominates; Claude Code's own timeout for the hook is 10 s.
    expect(r.ms).toBeLessThan(5000);
    expect(JSON.parse(r.stdout)).toEqual({ delivered: false, queued: true });
    const queue = hookQueuePath(tmp.path);
    expect(statSync(queue).mode & 0o777).toBe(0o600);
    const note = JSON.parse(readFileSync(queue, 'utf8').trim());
    expect(note).toMatchObject({ id: 'w1', event: 'Notification', message: 'Claude needs your permission to use Bash', notificationType: 'permission_prompt', transcriptPath: '/nowhere/s-1.jsonl' });
  });

  it('exits 0 on a payload that is not JSON, and outside a worker (no HAND_WORKER_ID) it does nothing', async () => {
    const tmp = makeTempDir('hook-garbage');
    temps.push(tmp);
    writeFileSync(join(tmp.path, 'fleet.db'), '');
    const garbage = await runHook('Stop', '{not json', { ...baseEnv(), HAND_WORKER_ID: 'w1', HAND_HOME: tmp.path });
    expect(garbage.code).toBe(0);
    expect(JSON.parse(readFileSync(hookQueuePath(tmp.path), 'utf8').trim())).toMatchObject({ id: 'w1', event: 'Stop' });
    const outside = makeTempDir('hook-outside');
    temps.push(outside);
    const r = await runHook('Stop', '{}', { ...baseEnv(), HAND_HOME: outside.path });
    expect(r.code).toBe(0);
    expect(existsSync(hookQueuePath(outside.path))).toBe(false);
  });

  it('dispatch writes the hooks; notes reach the live daemon, and notes written while it is down are applied after its restart', async () => {
    world = await makeCliWorld('hook-daemon', { binary: true });
    const w = world;
    await w.hand(['annex', w.repo, '--yolo']);
    const d = await w.hand(['dispatch', 'hw', '--repo', w.repo, '--brief', w.brief('hw', 'work'), '--agent', 'mock', '--json']);
    expect(d.code, d.stderr).toBe(0);
    expect((await w.hand(['wait', 'hw', '--until', 'settled', '--timeout', '30s'])).code).toBe(0);
    const settings = JSON.parse(readFileSync(join(w.repo, '.claude', 'worktrees', 'hw', '.claude', 'settings.local.json'), 'utf8'));
    for (const event of ['Notification', 'Stop', 'UserPromptSubmit', 'SessionStart', 'SessionEnd']) {
      expect(settings.hooks[event][0].hooks[0].command, event).toContain(`hook ${event}`);
      expect(settings.hooks[event][0].hooks[0].command, event).toContain(HAND_BIN);
    }
    // The worker's own capability, as its launch environment carries it (a hook speaks only for its worker).
    const env = { ...baseEnv(), HAND_WORKER_ID: 'hw', HAND_HOME: w.home, HAND_HOOK_CAP: hookCapability(w.home, 'hw') };
    const live = await runHook('Stop', JSON.stringify({ hook_event_name: 'Stop', session_id: 's-1' }), env);
    expect([live.code, JSON.parse(live.stdout)]).toEqual([0, { delivered: true, queued: false }]);
    const row = async () => ((await w.hand(['status', 'hw', '--json'])).json as Array<Record<string, any>>)[0]!;
    expect((await row()).hook).toMatchObject({ event: 'Stop', word: 'idle' });
    // A hook that timed out against the running daemon queued its note: applied within seconds, no restart.
    appendToQueue(hookQueuePath(w.home), `${JSON.stringify({ id: 'hw', event: 'UserPromptSubmit', at: Date.now(), cap: hookCapability(w.home, 'hw') })}\n`);
    await waitFor(async () => (await row()).hook?.event === 'UserPromptSubmit', { what: 'the note queued beside the running daemon in hand status', timeoutMs: 10_000, intervalMs: 200 });
    expect(existsSync(hookQueuePath(w.home))).toBe(false);

    expect((await w.hand(['daemon', 'stop'])).code).toBe(0);
    const down = await runHook('Notification', asks, env);
    expect([down.code, JSON.parse(down.stdout)]).toEqual([0, { delivered: false, queued: true }]);
    // The next command starts the daemon again; it drains the queue before it takes requests.
    const after = await row();
    expect(after.hook).toMatchObject({ event: 'Notification', word: 'needs-input', message: 'worker hw wrote: "Claude needs your permission to use Bash"' });
    expect(existsSync(hookQueuePath(w.home))).toBe(false);
    // The mock's screen is readable and at rest while the hook says it asks: after the grace, disputed.
    const disputed = await waitFor(async () => (await row()).disputed ?? false, { what: 'the worker to be disputed (screen idle, hook needs-input)', timeoutMs: 20_000, intervalMs: 500 });
    expect(disputed).toMatchObject({ screen: 'idle', hook: 'needs-input' });
    const woke = await w.hand(['wait', 'hw', '--until', 'blocked', '--timeout', '10s', '--json']);
    expect([woke.code, (woke.json as Record<string, unknown>).reason]).toEqual([0, 'disputed']);
    const table = await w.hand(['status']);
    expect(table.stdout).toContain('idle≠needs-input');
  });
});
