/**
 * A worker on an older Claude Code from the corpus (2.1.197), chosen with HAND_CLAUDE_BIN in the
 * daemon's environment, against the fake model API: dispatch records its version (so its screen
 * is read with that version's profile), the worker blocks on a permission dialog, takes the
 * answer and settles. The build is installed into ~/.cache/kingshand/claude/<version> as the
 * corpus capture does; with no registry (no network) the test is skipped and says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startFakeAnthropic, type FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { claudeBinaryFor } from '../harness/claude-versions.ts';
import { makeE2eWorld, type E2eWorld } from './e2e-world.ts';

const VERSION = '2.1.197';
let fake: FakeAnthropic | null = null;
let w: E2eWorld | null = null;
let bin: string | null = null;
let problem: string | null = null;

beforeAll(async () => {
  try {
    bin = claudeBinaryFor(VERSION, { timeoutMs: 180_000 });
  } catch (err) {
    problem = String((err as Error).message ?? err).split('\n')[0]!;
    return;
  }
  fake = await startFakeAnthropic();
  // The daemon that `annex` starts already runs this build (HAND_CLAUDE_BIN in its environment).
  w = await makeE2eWorld('e2e-old-claude', fake, { permissions: 'ask', env: { HAND_CLAUDE_BIN: bin } });
}, 240_000);
afterAll(async () => {
  await w?.cleanup();
  await fake?.close();
});

describe(`a worker on Claude Code ${VERSION} (older than the pinned build)`, () => {
  it('is read with its version, blocks on a permission dialog, takes the answer and settles', async (ctx) => {
    if (problem || !w) ctx.skip(`Claude Code ${VERSION} cannot be installed into the cache (${problem}); run \`npm run capture -- --claude ${VERSION}\` with network once`);
    const world = w!;
    const id = 'old-report';
    const reportPath = world.reportPathOf(id);
    await world.dispatch(id, 'tmux', `MODE:report ${reportPath}`);
    const db = new Database(join(world.home, 'fleet.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT agent_version FROM workers WHERE id = ?').get(id)).toEqual({ agent_version: VERSION });
    } finally {
      db.close();
    }
    // Posture ask: the report's Write waits for a person.
    const blocked = await world.wait(id, 'blocked', '60s');
    expect(blocked.code, blocked.stdout + blocked.stderr).toBe(0);
    expect(blocked.json).toMatchObject({ reason: 'blocked', awaitingInput: true, blockedReason: 'permission' });
    const enter = await world.hand(['keys', id, 'enter', '--json']);
    expect(enter.code, enter.stdout + enter.stderr).toBe(0);
    const settled = await world.wait(id, 'settled', '60s');
    expect(settled.code, settled.stdout + settled.stderr).toBe(0);
    expect(settled.json).toMatchObject({ reason: 'settled', state: 'idle', awaitingInput: false });
    const status = await world.status(id);
    expect(status).toMatchObject({ reportExists: true, live: true });
  });
});
