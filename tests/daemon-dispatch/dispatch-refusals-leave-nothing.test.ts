import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HandError } from '../../contract/errors.ts';
import { git, makeRepo } from '../git/git-fixture.ts';
import { createdBy, trackWorlds } from './dispatch-fixture.ts';

const world = trackWorlds();

async function refusal(p: Promise<unknown>): Promise<HandError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof HandError)) throw new Error(`expected a typed refusal, got ${String(err)}`);
  return err;
}

describe('a refused dispatch leaves no worktree, branch, pane or copied file behind', () => {
  it('refuses a brief without a "## Read first" section', async () => {
    const w = await world();
    const brief = w.writeInbox('no-section.md', '# T-1\n\n## Goal\nx\n');
    expect((await refusal(w.dispatch({ brief }))).code).toBe('brief-no-read-first');
    expect(createdBy(w)).toEqual([]);
  });

  it('refuses a brief whose only "## Read first" is inside a fenced block', async () => {
    const w = await world();
    const brief = w.writeInbox('fenced.md', '# T-1\n\n```md\n## Read first\n- Nothing beyond this brief - the index was checked and nothing in it applies.\n```\n');
    expect((await refusal(w.dispatch({ brief }))).code).toBe('brief-no-read-first');
    expect(createdBy(w)).toEqual([]);
  });

  it("refuses a project default agent that is not installed, naming it as the project's default, with nothing created", async () => {
    const w = await world();
    w.store.upsertProject({ ...w.store.getProject('app')!, defaultAgent: 'codex' });
    w.deps.agentProblem = (agent) => (agent === 'codex' ? 'Codex CLI is not installed. Install it (npm install -g @openai/codex) or use --agent mock.' : null);
    const err = await refusal(w.dispatch({ agent: undefined }));
    expect(err.code).toBe('agent-unavailable');
    expect(err.message).toContain("codex is project app's default agent");
    expect(err.message).toContain('hand project set app --agent');
    expect(createdBy(w)).toEqual([]);
  });

  it('refuses a read path that does not exist', async () => {
    const w = await world();
    const err = await refusal(w.dispatch({ readPaths: [join(w.inbox, 'missing.md')] }));
    expect(err.code).toBe('missing-file');
    expect(createdBy(w)).toEqual([]);
  });

  it('refuses a read path that is a directory', async () => {
    const w = await world();
    mkdirSync(join(w.inbox, 'specs'));
    expect((await refusal(w.dispatch({ readPaths: [join(w.inbox, 'specs')] }))).code).toBe('not-a-file');
    expect(createdBy(w)).toEqual([]);
  });

  it('refuses two read paths that share a leaf name, ignoring case', async () => {
    const w = await world();
    const a = w.writeInbox('a/Spec.md', 'a');
    const b = w.writeInbox('b/spec.md', 'b');
    const err = await refusal(w.dispatch({ readPaths: [a, b] }));
    expect(err.code).toBe('read-path-clash');
    expect(err.message).toContain('Spec.md');
    expect(createdBy(w)).toEqual([]);
  });

  it('refuses when the index lists files and the brief names none (index rule)', async () => {
    const w = await world();
    mkdirSync(join(w.dataDir, 'index'));
    writeFileSync(join(w.dataDir, 'index', 'app.md'), '# Index\n\n- `data/specs/brand.md` - settled brand spec (added 2026-01-01)\n');
    const brief = w.writeInbox('b.md', '# T-1\n\n## Read first\n- look around the repo\n');
    const err = await refusal(w.dispatch({ brief }));
    expect(err.code).toBe('index-not-consulted');
    expect(err.message).toContain(join(w.dataDir, 'index', 'app.md'));
    expect(createdBy(w)).toEqual([]);
  });

  it('does not count a standing file passed by hand toward the index rule', async () => {
    const w = await world();
    writeFileSync(join(w.dataDir, 'index.md'), '- `data/x.md` - something (added 2026-01-01)\n');
    writeFileSync(join(w.dataDir, 'rules-app.md'), 'rules\n');
    const brief = w.writeInbox('b.md', '# T-1\n\n## Read first\n- rules only\n');
    expect((await refusal(w.dispatch({ brief, readPaths: [join(w.dataDir, 'rules-app.md')] }))).code).toBe('index-not-consulted');
    expect(createdBy(w)).toEqual([]);
  });

  it('refuses a standing file that is a directory (unreadable is not absent)', async () => {
    const w = await world();
    mkdirSync(join(w.dataDir, 'done-app.md'));
    expect((await refusal(w.dispatch())).code).toBe('standing-file-not-a-file');
    expect(createdBy(w)).toEqual([]);
  });

  it('refuses a read path with the same leaf as a standing file but different content', async () => {
    const w = await world();
    writeFileSync(join(w.dataDir, 'done-app.md'), '- builds\n');
    const mine = w.writeInbox('done-app.md', 'my own\n');
    expect((await refusal(w.dispatch({ readPaths: [mine] }))).code).toBe('standing-file-clash');
    expect(createdBy(w)).toEqual([]);
  });

  it('refuses an unregistered repository', async () => {
    const w = await world({ register: false });
    const err = await refusal(w.dispatch());
    expect(err.code).toBe('unregistered-repo');
    expect(err.message).toContain('hand annex');
    expect(createdBy(w)).toEqual([]);
  });

  it('refuses when no base ref resolves (only a worker branch exists)', async () => {
    const w = await world({ fixture: makeRepo({ branch: 'worktree-other', label: 'dispatch-nobase' }) });
    const err = await refusal(w.dispatch());
    expect(err.code).toBe('base-ref-unresolvable');
    expect(createdBy(w)).toEqual([]);
  });

  it('refuses over a report left by an earlier worker of the same id, and leaves it alone', async () => {
    const w = await world();
    mkdirSync(join(w.workersDir, 'T-1', 'out'), { recursive: true });
    writeFileSync(join(w.workersDir, 'T-1', 'out', 'report.md'), 'old report\n');
    expect((await refusal(w.dispatch())).code).toBe('stale-report');
    expect(readFileSync(join(w.workersDir, 'T-1', 'out', 'report.md'), 'utf8')).toBe('old report\n');
    expect(w.fleet.dispatched).toEqual([]);
    expect(git(w.repo, 'branch', '--list', 'worktree-T-1')).toBe('');
  });

  it('refuses over anything at the report path, a link or a FIFO included (it would read as this worker\'s report)', async () => {
    const w = await world();
    mkdirSync(join(w.workersDir, 'T-1', 'out'), { recursive: true });
    symlinkSync(join(w.workersDir, 'nowhere'), join(w.workersDir, 'T-1', 'out', 'report.md'));
    expect((await refusal(w.dispatch())).code).toBe('stale-report');
    expect(w.fleet.dispatched).toEqual([]);
  });

  it('undoes the copied files when the fleet fails to start the worker', async () => {
    const w = await world();
    const spec = w.writeInbox('spec.md', 'spec\n');
    w.fleet.failNext = new Error('pane could not be created');
    await expect(w.dispatch({ readPaths: [spec] })).rejects.toThrow('pane could not be created');
    expect(createdBy(w).filter((c) => !c.includes('fleet dispatch'))).toEqual([]);
    expect(readFileSync(spec, 'utf8')).toBe('spec\n');
  });
});
