/**
 * The real Claude Code 2.1.332 runs the hooks dispatch writes into the worker's
 * settings.local.json, and they reach the daemon: a permission dialog brings a Notification
 * (needs-input) that agrees with the screen (blocked, no dispute), and a finished turn brings
 * Stop with the transcript whose usage `hand status --json` then shows.
 */
import { describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { type E2eWorld, repliedWithTool, useE2eWorld, watermark } from './e2e-world.ts';
import { waitFor } from '../helpers/temp.ts';
import { join } from 'node:path';
import Database from 'better-sqlite3';

let fake: FakeAnthropic;
let w: E2eWorld;
useE2eWorld('e2e-hooks', { permissions: 'ask' }, {}, (made) => void ({ fake, w } = made));

// In order: the second test moves the project to the edits posture (a second installation for
// it only repeated the daemon's start-up and teardown).
describe.sequential('Claude Code hooks fire into the daemon (real 2.1.332, tmux)', () => {
  it('a permission dialog brings the Notification hook; it agrees with the screen, so nothing is disputed', async () => {
    const id = 'hook-ask';
    const since = watermark(fake);
    await w.dispatch(id, 'tmux', 'MODE:bash');
    await w.request(id, since, repliedWithTool('Bash'), `the Bash call of ${id}`);
    const blocked = await w.wait(id, 'blocked', '45s');
    expect(blocked.code, blocked.stdout + blocked.stderr).toBe(0);
    expect(blocked.json).toMatchObject({ reason: 'blocked', blockedReason: 'permission' });
    const row = await waitFor(async () => {
      const s = await w.status(id);
      return s.hook?.event === 'Notification' ? s : false;
    }, { what: `the Notification hook of ${id} in hand status`, timeoutMs: 30_000, intervalMs: 500 });
    expect(row.hook).toMatchObject({ word: 'needs-input' });
    expect(row.hook.message).toMatch(/permission/i);
    expect(row.disputed).toBeNull();
  });

  it('a finished turn brings Stop, and the transcript it names gives token usage', async () => {
    const id = 'hook-done';
    // The report worker writes without asking: the edits posture, read by the next dispatch.
    const set = await w.hand(['project', 'set', 'repo', '--permissions', 'edits', '--json']);
    expect(set.code, set.stdout + set.stderr).toBe(0);
    await w.dispatch(id, 'tmux', `MODE:report ${w.reportPathOf(id)}`);
    const settled = await w.wait(id, 'settled', '60s');
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    const row = await waitFor(async () => {
      const s = await w.status(id);
      return s.hook?.event === 'Stop' && s.tokens ? s : false;
    }, { what: `the Stop hook and token usage of ${id} in hand status`, timeoutMs: 30_000, intervalMs: 500 });
    expect(row.hook).toMatchObject({ word: 'idle' });
    expect(row.tokens.output).toBeGreaterThan(0);
    expect(row.tokens.messages).toBeGreaterThan(0);
    const table = await w.hand(['status']);
    expect(table.stdout).toMatch(/TOKENS/);
  });

  it('that finished turn settled on the Stop hook and the screen that agreed, not on the quiet window (issue 39)', async () => {
    // Claude Code keeps its spinner up (`running Stop hook`) until the hook exits: the word reaches
    // the daemon first, and the first idle screen after it settles the worker, no quiet time waited.
    const db = new Database(join(w.home, 'fleet.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT event_json, from_json, to_json FROM journal WHERE actor_id = ? ORDER BY seq').all('worker:hook-done') as Array<{ event_json: string; from_json: string | null; to_json: string | null }>;
      const into = rows.find((r) => r.to_json !== null && r.to_json.includes('settled') && !(r.from_json ?? '').includes('settled'));
      expect(into, JSON.stringify(rows.map((r) => [JSON.parse(r.event_json).type, r.from_json, r.to_json]))).toBeDefined();
      expect(JSON.parse(into!.event_json)).toMatchObject({ type: 'SCREEN', turnEnded: true });
      expect(into!.from_json ?? '').not.toContain('finishing');
    } finally {
      db.close();
    }
  });
});
