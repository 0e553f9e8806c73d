/**
 * The chronicle skill's measurements: `hand index add|check` (one line per data file, a 160
 * character summary cap that refuses rather than cuts, UNINDEXED and STALE drift) and
 * `hand memory check` (chars/4 estimated tokens of the two memory files against memory/budget;
 * OVER when exceeded; a malformed budget is an error, never the default).
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useTempDirs } from '../helpers/use-temp-dir.ts';
import { HAND_BIN, runProcess } from '../helpers/hand-process.ts';
import { initWorkspace } from '../../io/workspace/init.ts';
import { workspacePaths } from '../../io/workspace/layout.ts';
import { addIndexEntry, indexDrift, readIndex } from '../../io/workspace/data-index.ts';
import { readIndexFacts } from '../../io/brief/index-rule.ts';
import { memoryReport } from '../../io/workspace/memory.ts';

const tempDir = useTempDirs();

function workspace() {
  const root = tempDir('hand-index');
  const ws = join(root, 'ws');
  initWorkspace({ dir: ws, home: null, stateDir: join(root, 'state'), node: process.execPath, handBin: HAND_BIN, version: 'test' });
  const p = workspacePaths(ws);
  const hand = (...args: string[]) => runProcess([process.execPath, HAND_BIN, '--home', join(root, 'state'), ...args, '--workspace', ws, '--json'], { PATH: process.env.PATH ?? '' }, 30_000);
  return { p, hand };
}

describe('data index', () => {
  it('indexes a data file in one line and re-adding rewrites that line and keeps its date', () => {
    const { p } = workspace();
    mkdirSync(join(p.data, 'briefs'));
    writeFileSync(join(p.data, 'briefs', 'fix-login.md'), '# brief\n');
    const first = addIndexEntry(p, join(p.data, 'briefs', 'fix-login.md'), 'brief for   fix-login:\n the login bug', '2026-11-01');
    expect(first).toMatchObject({ path: 'data/briefs/fix-login.md', summary: 'brief for fix-login: the login bug', updated: false });
    const again = addIndexEntry(p, 'data/briefs/fix-login.md', 'brief for fix-login (revised)', '2026-12-01');
    expect(again).toMatchObject({ updated: true, added: '2026-11-01' });
    expect(readIndex(p)).toEqual([{ path: 'data/briefs/fix-login.md', summary: 'brief for fix-login (revised)', added: '2026-11-01', exists: true }]);
    expect(readFileSync(p.index, 'utf8')).toContain('- `data/briefs/fix-login.md` - brief for fix-login (revised) (added 2026-11-01)\n');
  });

  it('a summary over 160 characters is refused, never cut, and leaves the index unchanged', () => {
    const { p } = workspace();
    writeFileSync(join(p.data, 'a.md'), 'x');
    const before = readFileSync(p.index, 'utf8');
    expect(() => addIndexEntry(p, join(p.data, 'a.md'), 'y'.repeat(161))).toThrow(/161 characters; at most 160/);
    expect(() => addIndexEntry(p, join(p.data, 'a.md'), ' \n ')).toThrow(/summary is empty/);
    expect(readFileSync(p.index, 'utf8')).toBe(before);
    expect(addIndexEntry(p, join(p.data, 'a.md'), 'y'.repeat(160)).summary).toHaveLength(160);
  });

  it('a path outside data/ is refused', () => {
    const { p } = workspace();
    expect(() => addIndexEntry(p, p.instructions, 'the instructions')).toThrow(/not inside .*data/);
    expect(() => addIndexEntry(p, join(p.data, '..', 'memory', 'king.md'), 'memory')).toThrow(/not inside/);
  });

  it('drift: files listed nowhere are UNINDEXED, entries whose file is gone are STALE; html and read-first copies never count', () => {
    const { p } = workspace();
    writeFileSync(join(p.data, 'kept.md'), 'k');
    writeFileSync(join(p.data, 'gone.md'), 'g');
    addIndexEntry(p, join(p.data, 'kept.md'), 'kept');
    addIndexEntry(p, join(p.data, 'gone.md'), 'gone');
    rmSync(join(p.data, 'gone.md'));
    writeFileSync(join(p.data, 'new.md'), 'n');
    writeFileSync(join(p.data, 'page.html'), '<p>');
    mkdirSync(join(p.data, 'w1', 'read-first'), { recursive: true });
    writeFileSync(join(p.data, 'w1', 'read-first', 'spec.md'), 's');
    expect(indexDrift(p)).toMatchObject({ indexed: 2, unindexed: ['data/new.md'], stale: ['data/gone.md'] });
  });

  it('hand index add and hand index check answer in JSON; bad usage exits 2', async () => {
    const { p, hand } = workspace();
    writeFileSync(join(p.data, 'x.md'), 'x');
    const check = await hand('index', 'check');
    expect(check.code, check.stderr).toBe(0);
    expect(check.json).toMatchObject({ indexed: 0, unindexed: ['data/x.md'], stale: [] });
    const add = await hand('index', 'add', join(p.data, 'x.md'), '--summary', 'the x file');
    expect(add.code, add.stderr).toBe(0);
    expect((await hand('index', 'check')).json).toMatchObject({ indexed: 1, unindexed: [] });
    const long = await hand('index', 'add', join(p.data, 'x.md'), '--summary', 'z'.repeat(200));
    expect(long.code).toBe(2);
    expect(long.json.error.code).toBe('summary-too-long');
  });

  it("a project's own index (--project) counts as indexed, is read by the project's index rule, and a bad project name is refused", async () => {
    const { p, hand } = workspace();
    writeFileSync(join(p.data, 'shop-spec.md'), 's');
    const add = await hand('index', 'add', join(p.data, 'shop-spec.md'), '--summary', "the shop's checkout spec", '--project', 'shop');
    expect(add.code, add.stderr).toBe(0);
    expect(add.json).toMatchObject({ path: 'data/shop-spec.md', index: 'data/index/shop.md', updated: false });
    expect(readFileSync(join(p.data, 'index', 'shop.md'), 'utf8')).toMatch(/^# Index of shop\n\n- `data\/shop-spec.md` - the shop's checkout spec \(added \d{4}-\d{2}-\d{2}\)\n$/);
    expect(readIndex(p)).toEqual([]);
    // The same index file dispatch's index rule reads for the project's briefs.
    expect(readIndexFacts(p.data, 'shop').project).toMatchObject({ entries: 1, files: ['data/shop-spec.md'] });
    expect((await hand('index', 'check')).json).toMatchObject({ indexed: 1, unindexed: [], indexes: ['data/index.md', 'data/index/shop.md'] });
    for (const bad of ['../etc', 'a/b', '.hidden']) {
      const r = await hand('index', 'add', join(p.data, 'shop-spec.md'), '--summary', 'x', '--project', bad);
      expect(r.code, bad).toBe(2);
      expect(r.json.error.code).toBe('bad-project-name');
    }
  });

  it('drift can be cleared: --prune drops the STALE lines of every index, remove drops one line; the files are never touched', async () => {
    const { p, hand } = workspace();
    for (const f of ['kept.md', 'gone.md', 'gone-shop.md']) writeFileSync(join(p.data, f), f);
    addIndexEntry(p, join(p.data, 'kept.md'), 'kept');
    addIndexEntry(p, join(p.data, 'gone.md'), 'gone');
    addIndexEntry(p, join(p.data, 'gone-shop.md'), 'gone from the shop', undefined, 'shop');
    rmSync(join(p.data, 'gone.md'));
    rmSync(join(p.data, 'gone-shop.md'));
    const seen = await hand('index', 'check');
    expect(seen.json.staleIn).toEqual([{ path: 'data/gone.md', index: 'data/index.md' }, { path: 'data/gone-shop.md', index: 'data/index/shop.md' }]);
    const pruned = await hand('index', 'check', '--prune');
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.json).toMatchObject({ stale: [], pruned: [{ path: 'data/gone.md', index: 'data/index.md' }, { path: 'data/gone-shop.md', index: 'data/index/shop.md' }] });
    expect(readIndex(p).map((e) => e.path)).toEqual(['data/kept.md']);
    expect(readIndex(p, 'shop')).toEqual([]);
    const removed = await hand('index', 'remove', 'data/kept.md');
    expect(removed.json).toEqual({ path: 'data/kept.md', index: 'data/index.md' });
    expect(readIndex(p)).toEqual([]);
    expect(readFileSync(join(p.data, 'kept.md'), 'utf8'), 'the file is kept').toBe('kept.md');
    const again = await hand('index', 'remove', 'data/kept.md');
    expect(again.code).toBe(2);
    expect(again.json.error).toMatchObject({ code: 'not-indexed' });
  });
});

describe('memory budget', () => {
  it('estimates chars/4 per memory file and says OVER when the total exceeds the budget', () => {
    const { p } = workspace();
    writeFileSync(p.king, 'k'.repeat(400)); // 100 tokens
    writeFileSync(p.learnings, 'l'.repeat(401)); // 101 tokens (rounded up)
    writeFileSync(p.budget, '300\n');
    expect(memoryReport(p)).toMatchObject({ budget: 300, total: 201, over: false, overBy: 0 });
    writeFileSync(p.budget, '200');
    expect(memoryReport(p)).toMatchObject({ total: 201, over: true, overBy: 1 });
  });

  it('an absent memory file counts zero and an absent budget is 7500', () => {
    const { p } = workspace();
    rmSync(p.learnings);
    rmSync(p.budget);
    const r = memoryReport(p);
    expect(r.budget).toBe(7500);
    expect(r.files.find((f) => f.path === 'memory/learnings.md')).toEqual({ path: 'memory/learnings.md', present: false, chars: 0, tokens: 0 });
  });

  it('a malformed budget is an error naming the file, never the default', () => {
    const { p } = workspace();
    for (const bad of ['7,500', '-5', '0', '75 00', '7500\n8000\n', 'lots']) {
      writeFileSync(p.budget, bad);
      expect(() => memoryReport(p), bad).toThrow(/memory\/budget must hold one positive whole number/);
    }
  });

  it('hand memory check --json reports the same numbers', async () => {
    const { p, hand } = workspace();
    writeFileSync(p.king, 'k'.repeat(4000));
    writeFileSync(p.budget, '500\n');
    const r = await hand('memory', 'check');
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toEqual(memoryReport(p));
    expect(r.json).toMatchObject({ over: true });
  });
});

describe('standing criteria: the kit keeps done-<project>.md', () => {
  it('the annex skill creates done-<project>.md with a "nothing standing yet" line and muster folds landing findings into it', () => {
    const { p } = workspace();
    const annex = readFileSync(join(p.skills, 'annex', 'SKILL.md'), 'utf8');
    expect(annex).toContain('data/done-<name>.md');
    expect(annex).toContain('- Nothing standing yet.');
    const muster = readFileSync(join(p.skills, 'muster', 'SKILL.md'), 'utf8');
    expect(muster).toContain('data/done-<project>.md');
    expect(muster).toContain('index add data/briefs/<id>.md');
  });

  it('standing files are attached by rote, so index drift never lists them as unindexed', () => {
    const { p } = workspace();
    writeFileSync(join(p.data, 'done-app.md'), '# Done for app\n\n- Nothing standing yet.\n');
    writeFileSync(join(p.data, 'rules-app.md'), 'rules\n');
    expect(indexDrift(p).unindexed).toEqual([]);
  });
});
