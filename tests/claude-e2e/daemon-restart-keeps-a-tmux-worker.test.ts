/**
 * A tmux pane outlives the daemon (DESIGN.md: workers survive a daemon restart). With a real
 * Claude Code mid-turn, the daemon is SIGKILLed; the next `hand status` starts a new one, which
 * re-attaches to the same worker: live, and steerable (Escape interrupts, a new prompt is
 * answered). The pty host cannot do this by design (its workers die with the daemon).
 */
import { expect, it } from 'vitest';
import type { FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { readFileSync } from 'node:fs';
import { isProcessAlive } from '../harness/process-alive.ts';
import { waitFor } from '../helpers/temp.ts';
import { type E2eWorld, useE2eWorld, watermark } from './e2e-world.ts';
import { join } from 'node:path';
import { socketRefuses } from '../helpers/processes.ts';

let fake: FakeAnthropic;
let w: E2eWorld;
useE2eWorld('e2e-restart', { daemonProcess: true }, {}, (made) => void ({ fake, w } = made));

it('after a daemon SIGKILL mid-turn, hand status restarts it and the same tmux worker is live and steerable', async () => {
  const id = 'survivor';
  const since = watermark(fake);
  await w.dispatch(id, 'tmux', 'MODE:hang');
  await w.request(id, since, (r) => r.reply?.kind === 'hang', 'the hung stream the worker is waiting on');
  const before = await w.status(id);
  expect(before).toMatchObject({ live: true, state: 'working' });

  const first = await w.hand(['daemon', 'status', '--json']);
  const oldPid = Number(first.json.pid);
  expect(oldPid).toBeGreaterThan(0);
  process.kill(oldPid, 'SIGKILL');
  await waitFor(() => !runs(oldPid), { what: `daemon ${oldPid} to die after SIGKILL`, timeoutMs: 10_000 });
  await socketRefuses(join(w.home, 'hand.sock'));

  const after = await w.status(id);
  expect(after).toMatchObject({ id, live: true, backend: 'tmux', agent: 'claude' });
  const second = await w.hand(['daemon', 'status', '--json']);
  expect(Number(second.json.pid)).not.toBe(oldPid);
  expect(await w.read(id)).toContain('esc to interrupt');

  // Steerable: Escape reaches the same Claude Code, which stops the turn...
  const esc = await w.hand(['keys', id, 'escape', '--json']);
  expect(esc.code, esc.stdout + esc.stderr).toBe(0);
  const settled = await w.wait(id, 'settled', '45s');
  expect(settled.code, settled.stdout + settled.stderr).toBe(0);
  expect(settled.json).toMatchObject({ reason: 'settled', state: 'idle', promptBox: '' });
  // ...and a new prompt typed through the new daemon is answered by the model.
  const mark = watermark(fake);
  const send = await w.hand(['send', id, 'say', 'hello', 'after', 'the', 'restart', '--json']);
  expect(send.code, send.stdout + send.stderr).toBe(0);
  const asked = await w.request(id, mark, (r) => r.kind === 'main' && r.summary?.lastPromptText === 'say hello after the restart', 'the prompt sent after the restart');
  expect(asked.reply).toMatchObject({ kind: 'text' });
  await waitFor(async () => (await w.read(id)).includes('Done. This is the fake model.'), { what: 'the reply on the screen', timeoutMs: 30_000, intervalMs: 250 });
  expect((await w.status(id)).live).toBe(true);
});

/** Alive and not a zombie: PID 1 in this container does not reap, so a killed daemon can linger as Z. */
function runs(pid: number): boolean {
  if (!isProcessAlive(pid)) return false;
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
