/**
 * Rule: `hand hook` speaks only for the worker whose capability it presents (issue 24 item 7).
 * `HAND_WORKER_ID=a1 hand hook Notification` from anywhere made a1 `disputed`. Each worker now
 * gets, at launch, a capability in its own 0600 launch environment; the daemon's hook method
 * (and the queue drained at start) refuses a note without that worker's capability.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemonWorld } from '../helpers/daemon-world.ts';
import { hookCapability } from '../../io/agent/claude/hook-capability.ts';
import { workerPaneEnv as workerEnv } from '../helpers/pane-env.ts';

const newWorld = useDaemonWorld();

const note = (id: string, cap?: string) => ({ id, event: 'Notification', at: Date.now(), message: 'Claude needs your permission to use Bash', notificationType: 'permission_prompt', ...(cap ? { cap } : {}) });

describe('a hook speaks only for its own worker', () => {
  it("refuses a note without the named worker's capability, or with another worker's; takes the worker's own", async () => {
    const w = await newWorld('hook-capability');
    await w.call('annex', { repo: w.repo, yolo: true });
    await w.dispatch('a1', 'Say hello.');
    await w.dispatch('b2', 'Say hello.');
    await w.call('wait', { id: 'a1', until: 'settled', timeoutMs: 30_000 });
    await w.call('wait', { id: 'b2', until: 'settled', timeoutMs: 30_000 });

    const a1 = workerEnv(w.paths.tmuxSocket, 'a1');
    const b2 = workerEnv(w.paths.tmuxSocket, 'b2');
    expect(a1.HAND_HOOK_CAP).toBe(hookCapability(w.home, 'a1'));
    expect(b2.HAND_HOOK_CAP).not.toBe(a1.HAND_HOOK_CAP);
    expect(statSync(join(w.home, 'hook.key')).mode & 0o777, 'the key is private').toBe(0o600);

    const forged = await w.refusal('hook', { note: note('a1') });
    expect(forged.code).toBe('hook-not-yours');
    expect(forged.message).toContain('a1');
    expect((await w.refusal('hook', { note: note('a1', b2.HAND_HOOK_CAP) })).code, "b2's capability does not speak for a1").toBe('hook-not-yours');
    const [before] = await w.call('status', { id: 'a1' });
    expect(before.hook?.word ?? null, 'a refused note changed nothing').not.toBe('needs-input');

    const own = await w.call('hook', { note: note('a1', a1.HAND_HOOK_CAP) });
    expect(own.id).toBe('a1');
    const [after] = await w.call('status', { id: 'a1' });
    expect(after.hook).toMatchObject({ event: 'Notification', word: 'needs-input' });
    await w.call('stop', { id: 'a1', timeoutMs: 15_000 });
    await w.call('stop', { id: 'b2', timeoutMs: 15_000 });
  });
});
