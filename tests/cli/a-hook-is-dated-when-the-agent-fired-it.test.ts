/**
 * A hook's note is dated when the agent fired the hook, not when `hand hook` got round to reading
 * the clock (a Gemini CLI worker under load settled on the AfterAgent of its write_file call,
 * fired before our key answered the dialog that followed but dated after it, and `hand land`
 * then found it still at work). The earliest of the payload's own `timestamp` and the hook
 * process's start, when within five seconds before now; never later than now, so a payload can
 * only make its own note older.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HAND_BIN } from './cli-harness.ts';
import { makeTempDir } from '../helpers/temp.ts';
import { HOOK_DATING_WINDOW_MS, hookFiredAt, hookQueuePath } from '../../contract/hook-note.ts';

const temps: Array<{ cleanup(): void }> = [];
afterEach(() => {
  for (const t of temps.splice(0)) t.cleanup();
});

/** `hand hook <event> <payload>` as its own process, as an agent runs it; the queued note back. */
async function hookProcess(event: string, payload: string): Promise<{ at: number; spawnedAt: number; exitedAt: number }> {
  const tmp = makeTempDir('hook-dating');
  temps.push(tmp);
  writeFileSync(join(tmp.path, 'fleet.db'), ''); // a state directory whose daemon is down: the note is queued
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'HAND_HOME' && k !== 'HAND_WORKER_ID') env[k] = v;
  const spawnedAt = Date.now();
  const exitedAt = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, [HAND_BIN, 'hook', event, payload], { env: { ...env, HAND_WORKER_ID: 'w1', HAND_HOME: tmp.path }, stdio: 'ignore' });
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`hand hook ${event} did not exit within 15 s`))), 15_000);
    child.on('exit', () => (clearTimeout(timer), resolve(Date.now())));
  });
  const note = JSON.parse(readFileSync(hookQueuePath(tmp.path), 'utf8').trim()) as { at: number };
  return { at: note.at, spawnedAt, exitedAt };
}

describe('a hook is dated when the agent fired it', () => {
  it("the earliest of the payload's timestamp and the process's start, within the window; never later than now", () => {
    const now = 1_800_000_000_000;
    const iso = (t: number) => new Date(t).toISOString();
    expect(hookFiredAt(now, {})).toBe(now);
    expect(hookFiredAt(now, { timestamp: iso(now - 800) })).toBe(now - 800);
    expect(hookFiredAt(now, {}, now - 300)).toBe(now - 300);
    expect(hookFiredAt(now, { timestamp: iso(now - 800) }, now - 300)).toBe(now - 800);
    // A payload cannot make its note newer than now, nor reach past the window; junk is ignored.
    expect(hookFiredAt(now, { timestamp: iso(now + 60_000) })).toBe(now);
    expect(hookFiredAt(now, { timestamp: iso(now - HOOK_DATING_WINDOW_MS - 1) })).toBe(now);
    expect(hookFiredAt(now, {}, now - HOOK_DATING_WINDOW_MS - 1)).toBe(now);
    expect(hookFiredAt(now, { timestamp: 'yesterday' })).toBe(now);
    expect(hookFiredAt(now, { timestamp: 12 })).toBe(now);
    expect(hookFiredAt(now, 'not an object')).toBe(now);
  });

  it('a real `hand hook` process dates its note by the payload, else by its own start, not by when it read the clock', async () => {
    const stamped = Date.now() - 2_000;
    const byPayload = await hookProcess('AfterAgent', JSON.stringify({ hook_event_name: 'AfterAgent', timestamp: new Date(stamped).toISOString() }));
    expect(byPayload.at).toBe(stamped);
    // No timestamp (Claude Code's, Codex's payloads): the process's start, in the first half of its
    // life — its start-up and imports (most of it) come after.
    const byStart = await hookProcess('Stop', '{}');
    expect(byStart.at).toBeGreaterThanOrEqual(byStart.spawnedAt - 5);
    expect(byStart.at - byStart.spawnedAt, `dated ${byStart.at - byStart.spawnedAt} ms after the spawn; it lived ${byStart.exitedAt - byStart.spawnedAt} ms`).toBeLessThan((byStart.exitedAt - byStart.spawnedAt) / 2);
  });
});
