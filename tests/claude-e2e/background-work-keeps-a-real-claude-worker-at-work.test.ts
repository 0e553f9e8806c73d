/**
 * Rule (issue 43): a real Claude Code 2.1.332 worker whose turn left a Bash command running in
 * the background (`run_in_background: true`, against the fake API) is "working (background: 1
 * task)" — never idle, settled or done — until the command ends; then Claude Code runs a turn on
 * the task's notification, its Stop hook lists no background task, and the worker settles. Both
 * witnesses are seen: the Stop hook's `background_tasks` (its word `working`) and the screen's
 * `· 1 shell still running`. Before, the worker read idle and settled at once on the Stop hook.
 */
import { describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { type E2eWorld, useE2eWorld } from './e2e-world.ts';
import { waitFor } from '../helpers/temp.ts';

/** Long enough to look at the worker meanwhile; the notification turn comes right after. */
const BACKGROUND_S = 12;

let fake: FakeAnthropic;
let w: E2eWorld;
// Posture off: the Bash call runs without a permission dialog.
useE2eWorld('e2e-background', { permissions: 'off' }, {}, (made) => void ({ fake, w } = made));

describe('background work keeps a real Claude Code worker at work (2.1.332, tmux)', () => {
  it('working (background: 1 task) while the shell runs, Stop listing it settles nothing; settled once it ended', async () => {
    const id = 'bg';
    await w.dispatch(id, 'tmux', `MODE:background[[sleep ${BACKGROUND_S}]]`);
    const during = await waitFor(async () => {
      const s = await w.status(id);
      return s.hook?.event === 'Stop' && s.background === 1 ? s : false;
    }, { what: `${id} at work in the background, its Stop hook heard`, timeoutMs: 60_000, intervalMs: 250 });
    expect(during).toMatchObject({ condition: 'busy', state: 'working', background: 1, stage: 'running.working' });
    // The Stop hook's own word: still at work.
    expect(during.hook.word).toBe('working');
    // The screen agrees by itself.
    expect(await w.read(id)).toMatch(/1 shell still running/);
    const table = await w.hand(['status']);
    expect(table.stdout).toContain('working (background: 1 task)');
    // Not settled while it runs: a bounded wait for settled ends at its bound (well past the quiet window).
    const early = await w.hand(['wait', id, '--until', 'settled', '--timeout', '3s', '--json']);
    expect(early.json?.reason, early.stdout + early.stderr).toBe('timeout');
    // The shell ends; Claude Code answers its notification; that turn's Stop lists nothing.
    const settled = await w.wait(id, 'settled', '60s');
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    const after = await w.status(id);
    expect(after.background).toBeNull();
    expect(after.hook).toMatchObject({ event: 'Stop', word: 'idle' });
    expect(await w.read(id)).toMatch(/Background command .* completed/);
  }, 150_000);
});
