/**
 * The real Claude Code under the real fleet, in process (createFleetHost + the real tmux and pty
 * hosts + a real SQLite store + the real ports), for the two rules no CLI call can set up:
 * - an untrusted worktree: dispatch always seeds trust where the worker will read it, so the
 *   ports here keep everything but the trust seed (settings are still written); the real binary
 *   then shows its trust dialog, and the product must report `blocked` / `folder-trust` and never
 *   answer it;
 * - an unreadable (too narrow) screen never reports a stall: the pane is resized below 40
 *   columns while the turn hangs.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeClaudeSettings } from '../../io/agent/claude/index.ts';
import type { FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { fakeRequest, watermark, useFakeAnthropic } from './e2e-world.ts';
import { makeFleetWorld, untilView, type FleetWorld } from './fleet-world.ts';

let fake: FakeAnthropic;
useFakeAnthropic((f) => (fake = f));

/** How long a blocked trust dialog is watched for anything answering it. */
const UNANSWERED_MS = 4_000;

describe('an untrusted worktree under the real fleet', () => {
  let w: FleetWorld;
  let since: number;
  /** Each worker's stages from the moment it was first seen blocked on the dialog. */
  const after = new Map<string, { at: number; stages: string[] }>();
  let off = () => {};
  beforeAll(async () => {
    // Everything dispatch's seeding does except the trust entry (the same settings call as real-ports).
    w = await makeFleetWorld('e2e-fleet-trust', fake, {
      seedAgent: async (intent) => void writeClaudeSettings({ worktree: intent.worktree, briefDir: dirname(intent.briefPath), permissionMode: 'acceptEdits' }),
    });
    off = w.fleet.subscribe((v) => {
      const seen = after.get(v.id);
      if (seen) seen.stages.push(v.stage);
      else if (v.awaitingInput && v.blockedReason === 'folder-trust') after.set(v.id, { at: Date.now(), stages: [] });
    });
    // Both hosts' workers start together: their unanswered stretches overlap instead of adding up.
    since = watermark(fake);
    for (const backend of ['tmux', 'pty'] as const) await w.dispatch(`trust-${backend}`, backend, 'MODE:report never', { stallMs: 60_000 });
  });
  afterAll(async () => {
    off();
    await w?.cleanup();
  });

  for (const backend of ['tmux', 'pty'] as const) {
    it(`${backend}: blocks at start on folder trust and is never answered automatically`, async () => {
      const id = `trust-${backend}`;
      const blocked = await untilView(w, id, (v) => v.awaitingInput && v.blockedReason === 'folder-trust', 'the trust dialog reported as blocked');
      expect(blocked).toMatchObject({ stage: 'starting.blocked', readable: true, live: true });
      if (!after.has(id)) after.set(id, { at: Date.now(), stages: [] });

      // Nothing may answer it: a bounded stretch in which nothing is supposed to happen, counted
      // from when the dialog was first seen (for pty, mostly spent while the tmux test watched).
      const seen = after.get(id)!;
      const left = seen.at + UNANSWERED_MS - Date.now();
      if (left > 0) await new Promise((r) => setTimeout(r, left));
      expect(seen.stages.filter((s) => s !== 'starting.blocked')).toEqual([]);
      expect(w.fleet.view(id)).toMatchObject({ stage: 'starting.blocked', awaitingInput: true, blockedReason: 'folder-trust', live: true });
      const screen = await w.fleet.readScreen(id);
      expect(screen.ok && screen.text).toContain('Accessing workspace:');
      const projects = (JSON.parse(readFileSync(w.claudeJsonPath, 'utf8')) as { projects?: Record<string, { hasTrustDialogAccepted?: boolean }> }).projects ?? {};
      expect(projects[w.worktreeOf(id)]?.hasTrustDialogAccepted).not.toBe(true);
      // The model was never asked anything: the prompt never went in.
      expect(fake.received.filter((r) => r.seq > since && r.path === '/v1/messages')).toEqual([]);
    });
  }
});

describe('an unreadable screen under the real fleet', () => {
  let w: FleetWorld;
  beforeAll(async () => {
    w = await makeFleetWorld('e2e-fleet-narrow', fake);
  });
  afterAll(async () => {
    await w?.cleanup();
  });

  it('pty: a worker whose turn hangs on a screen narrowed below 40 columns never reaches stalled', async () => {
    const id = 'narrow-pty';
    // Short, as the test waits on it (twice, then once): still ~2.5 s clear of the ~0.5 s the
    // resize takes to be read as blind after the hung turn starts.
    const stallMs = 3_000;
    const since = watermark(fake);
    const view = await w.dispatch(id, 'pty', 'MODE:hang', { stallMs });
    await fakeRequest(fake, since, (r) => r.reply?.kind === 'hang', `the hung stream of ${id}`);
    await untilView(w, id, (v) => v.stage === 'running.working', `${id} working on its hung turn`);
    const stages: string[] = [];
    const off = w.fleet.subscribe((v) => v.id === id && stages.push(v.stage));
    try {
      await w.hosts.pty.resize(view.paneId!, 30, 40);
      const blind = await untilView(w, id, (v) => !v.readable, `${id} unreadable after the resize to 30 columns`);
      expect(stages, 'stalled before the resize took effect: raise stallMs').not.toContain('running.stalled');
      expect(blind.stage).toBe('running.blind');
      // Twice the threshold on a hung turn: a readable screen would have stalled by now.
      await new Promise((r) => setTimeout(r, 2 * stallMs));
    } finally {
      off();
    }
    expect(stages).not.toContain('running.stalled');
    expect(w.fleet.view(id)).toMatchObject({ readable: false, stage: 'running.blind', live: true });
    // The control: the same hung turn on a readable screen again does stall.
    await w.hosts.pty.resize(view.paneId!, 120, 40);
    const stalled = await untilView(w, id, (v) => v.stage === 'running.stalled', `${id} stalled once readable again`, 30_000);
    expect(stalled.readable).toBe(true);
  });
});
