/**
 * `hand digest`: each part (projects with posture, live workers and their condition, what waits
 * on the person first, memory budget, index drift), the SessionStart hook form, and the rule
 * that a broken part never fails the session start (one BROKEN line, exit 0).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliWorld } from '../cli/cli-harness.ts';
import { makeWorkspaceWorld } from '../helpers/workspace-world.ts';
import { HAND_BIN, runProcess } from '../helpers/hand-process.ts';
import { makeTestRepo } from '../helpers/git-repo.ts';
import { workspacePaths } from '../../io/workspace/layout.ts';
import { addIndexEntry } from '../../io/workspace/data-index.ts';

const QUESTION = 'Which database should the fake project use?';
let w: CliWorld;
let ws: string;

beforeAll(async () => {
  ({ w, ws } = await makeWorkspaceWorld('hand-digest'));
  const p = workspacePaths(ws);
  writeFileSync(p.king, 'k'.repeat(4000));
  writeFileSync(p.budget, '600\n');
  writeFileSync(join(p.data, 'kept.md'), 'k');
  addIndexEntry(p, join(p.data, 'kept.md'), 'a kept file');
  writeFileSync(p.index, `${readFileSync(p.index, 'utf8')}- \`data/gone.md\` - a file since removed (added 2026-11-01)\n`);
  writeFileSync(join(p.data, 'loose.md'), 'l');

  // A yolo project with a worker that asks a question, and a gated project with a worker at its brief gate.
  expect((await w.hand(['annex', w.repo, '--yolo', '--json'])).code).toBe(0);
  const gated = join(w.root, 'gated');
  makeTestRepo(gated, '# gated\n');
  expect((await w.hand(['annex', gated, '--posture', 'local-only', '--json'])).code).toBe(0);
  const ask = w.brief('asker', 'MODE:ask pick one');
  expect((await w.hand(['dispatch', 'asker', '--repo', w.repo, '--brief', ask, '--agent', 'mock', '--json'])).code).toBe(0);
  expect((await w.hand(['wait', 'asker', '--until', 'blocked', '--timeout', '30s', '--json'])).code).toBe(0);
  const held = w.brief('held', 'Do a thing.');
  expect((await w.hand(['dispatch', 'held', '--repo', gated, '--brief', held, '--agent', 'mock', '--json'])).code).toBe(0);
  expect((await w.hand(['wait', 'held', '--until', 'blocked', '--timeout', '30s', '--json'])).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await w?.cleanup();
}, 60_000);

describe('hand digest', () => {
  it('shows each part: projects with posture, workers with condition, what waits on you first, memory OVER, UNINDEXED and STALE', async () => {
    const r = await w.hand(['digest', '--workspace', ws, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const d = r.json;
    expect(d.broken).toEqual([]);
    expect(d.fleet.projects).toEqual(expect.arrayContaining([
      expect.objectContaining({ name: 'repo', posture: 'local-only', yolo: true }),
      expect.objectContaining({ name: 'gated', posture: 'local-only', yolo: false }),
    ]));
    expect(d.fleet.workers).toEqual(expect.arrayContaining([
      expect.objectContaining({ id: 'asker', condition: 'blocked' }),
      expect.objectContaining({ id: 'held', condition: 'blocked' }),
    ]));
    expect(d.fleet.waiting).toEqual(expect.arrayContaining([
      expect.objectContaining({ id: 'asker', kind: 'blocked', text: expect.stringContaining(QUESTION) }),
      expect.objectContaining({ id: 'held', kind: 'gate', text: expect.stringContaining('brief approval') }),
    ]));
    expect(d.memory).toMatchObject({ total: 1000 + d.memory.files[1].tokens, budget: 600, over: true });
    expect(d.index).toMatchObject({ indexed: 2, unindexed: ['data/loose.md'], stale: ['data/gone.md'] });
    expect(d.setup).toMatchObject({ claude: { standing: 'in-corpus', version: '2.1.332', readWith: '2.1.332' }, missing: [] });

    const text = await w.hand(['digest', '--workspace', ws]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^=== HAND DIGEST \d{4}-\d\d-\d\d \d\d:\d\d UTC ===$/m);
    expect(text.stdout).toContain('PROJECTS 2: ');
    expect(text.stdout).toContain('[local-only, yolo]');
    expect(text.stdout).toContain('WAITS ON YOU 2:');
    expect(text.stdout).toContain(`- asker asks — worker asker wrote: ${JSON.stringify(QUESTION)}`);
    expect(text.stdout).toMatch(/MEMORY OVER: \d+ estimated tokens against a budget of 600/);
    // Drift as counts (issue 22): the file names are one hand index check away.
    expect(text.stdout).toContain('UNINDEXED 1 files in data/');
    expect(text.stdout).toContain('STALE 1 index lines');
    expect(text.stdout).not.toContain('data/loose.md');
    expect(text.stdout).toContain('QUEUE: empty');
    expect(text.stdout).toMatch(/USAGE: /);
    // Which Claude Code the workers run, against the versions the screen reader was scored on.
    expect(text.stdout).toMatch(/^CLAUDE CODE: Claude Code 2\.1\.332: its screens are in the reader's corpus \(scored on \d+ versions/m);
    expect(text.stdout).not.toContain('MISSING');
    // What waits on the person comes before the list of workers.
    expect(text.stdout.indexOf('WAITS ON YOU')).toBeLessThan(text.stdout.indexOf('WORKERS'));
  });

  it('--hook prints SessionStart hook output with the digest as additional context and records the session start', async () => {
    const before = Date.now();
    const r = await w.hand(['digest', '--hook', '--workspace', ws]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(out.hookSpecificOutput.additionalContext).toContain('=== HAND DIGEST');
    expect(out.hookSpecificOutput.additionalContext).toContain('=== END HAND DIGEST ===');
    const session = JSON.parse(readFileSync(join(w.home, 'hand-session.json'), 'utf8'));
    expect(session.startedAt).toBeGreaterThanOrEqual(before - 1000);
  });

  it('a broken part is one BROKEN line and the rest still prints, exit 0', async () => {
    writeFileSync(join(ws, 'memory', 'budget'), 'a lot\n');
    try {
      const r = await w.hand(['digest', '--workspace', ws]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^BROKEN memory: .*memory\/budget must hold one positive whole number/m);
      expect(r.stdout).toContain('WAITS ON YOU 2:');
      expect(r.stdout).toContain('UNINDEXED 1');
    } finally {
      writeFileSync(join(ws, 'memory', 'budget'), '600\n');
    }
  });

  it('a daemon that cannot start is one BROKEN line, and the hook output stays valid, exit 0', async () => {
    const badHome = join(w.root, 'bad-home');
    mkdirSync(join(badHome, 'fleet.db'), { recursive: true }); // the daemon cannot open its database
    const r = await runProcess([process.execPath, HAND_BIN, '--home', badHome, 'digest', '--hook', '--workspace', ws], w.env, 60_000);
    expect(r.code, r.stderr).toBe(0);
    const context = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    expect(context).toMatch(/^BROKEN fleet: /m);
    expect(context).toContain('MEMORY OVER');
    const unusable = await runProcess([process.execPath, HAND_BIN, '--home', join(w.root, 'x'.repeat(120)), 'digest', '--workspace', ws], w.env, 30_000);
    expect(unusable.code, unusable.stderr).toBe(0);
    expect(unusable.stdout).toMatch(/^BROKEN state directory: .*too long/m);
  });
});
