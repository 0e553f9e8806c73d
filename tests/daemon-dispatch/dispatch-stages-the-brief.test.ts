import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEAD_IN, parseBrief } from '../../io/brief/index.ts';
import { dataDirOf } from '../../daemon/fleet/dispatch.ts';
import { git, makeClonedRepo, commitFile } from '../git/git-fixture.ts';
import { trackWorlds } from './dispatch-fixture.ts';

const world = trackWorlds();

describe('dispatch stages the brief in its own directory', () => {
  it('copies read paths and standing files into read-first/, lists them in the brief, and grants only the brief directory', async () => {
    const w = await world();
    writeFileSync(join(w.dataDir, 'done-app.md'), '- the build passes\n');
    writeFileSync(join(w.dataDir, 'rules-app.md'), 'Never touch vendor/.\n');
    writeFileSync(join(w.dataDir, 'index.md'), '- `data/specs/api.md` - the settled API (added 2026-01-01)\n');
    const spec = w.writeInbox('specs/api.md', '# API\n');
    const brief = w.writeInbox('b.md', '# T-1\n\n## Read first\n- the API spec settles the routes\n\n## Scope\nrepo\n');
    const view = await w.dispatch({ brief, readPaths: [spec] });

    const dir = join(w.workersDir, 'T-1');
    expect(view.briefPath).toBe(join(dir, 'brief.md'));
    for (const leaf of ['api.md', 'done-app.md', 'rules-app.md']) expect(existsSync(join(dir, 'read-first', leaf))).toBe(true);
    expect(readFileSync(join(dir, 'read-first', 'rules-app.md'), 'utf8')).toBe('Never touch vendor/.\n');
    const composed = readFileSync(view.briefPath, 'utf8');
    const section = parseBrief(composed).readFirst!.lines;
    expect(section).toContain(LEAD_IN);
    expect(section.filter((l) => l.includes(join(dir, 'read-first')))).toHaveLength(3);
    expect(readFileSync(brief, 'utf8')).not.toContain(LEAD_IN); // the caller's original is untouched

    const settings = JSON.parse(readFileSync(join(view.worktree, '.claude', 'settings.local.json'), 'utf8'));
    expect(settings.permissions.additionalDirectories).toEqual([dir]);
    expect(view.base).toBe('main');
    expect(git(view.worktree, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('worktree-T-1');
  });

  it('dispatches a brief that states the index was checked while the index lists files', async () => {
    const w = await world();
    writeFileSync(join(w.dataDir, 'index.md'), '- `data/x.md` - something (added 2026-01-01)\n');
    const view = await w.dispatch();
    expect(existsSync(view.briefPath)).toBe(true);
  });

  it('attaches nothing for a project with no standing files', async () => {
    const w = await world();
    const view = await w.dispatch();
    expect(readFileSync(view.briefPath, 'utf8')).not.toContain(LEAD_IN);
  });

  it('cuts the worker from origin/HEAD on a cloned repository and records it as the base', async () => {
    const fx = makeClonedRepo({ label: 'dispatch-clone' });
    const w = await world({ fixture: fx });
    commitFile(fx.repo, 'local.txt', 'ahead\n', 'local only commit');
    const view = await w.dispatch();
    expect(view.base).toBe('origin/main');
    expect(existsSync(join(view.worktree, 'local.txt'))).toBe(false);
  });

  it('never records a worker branch as the base, even when origin/HEAD points at one', async () => {
    const fx = makeClonedRepo({ label: 'dispatch-originhead' });
    const w = await world({ fixture: fx });
    git(join(fx.root, 'seed'), 'branch', 'worktree-other');
    git(join(fx.root, 'seed'), 'push', '-q', fx.origin!, 'worktree-other');
    git(fx.repo, 'fetch', '-q', 'origin');
    git(fx.repo, 'remote', 'set-head', 'origin', 'worktree-other');
    const view = await w.dispatch();
    expect(view.base).toBe('origin/main');
  });

  it('reads standing files and indexes from the workspace data/, never from data/ beside the workers directory', async () => {
    const w = await world();
    // No workspace recorded in this state directory and none named: no data directory at all.
    expect(dataDirOf({ workersDir: join(w.home, 'workers') })).toBeNull();
    expect(dataDirOf({ workersDir: '/h/workers', dataDir: '/elsewhere' })).toBe('/elsewhere');
  });
});

describe('dispatch records the agent version for the screen reader', () => {
  it('stores what agentVersion answers on the worker row; without the port the row has none', async () => {
    const w = await world();
    w.deps.agentVersion = async (agent) => (agent === 'claude' ? '2.1.50' : null);
    // As root (CI) the default posture 'off' needs IS_SANDBOX=1, and bubblewrap and socat on the
    // worker's PATH for its sandbox, or dispatch refuses first.
    await w.dispatch({ agent: 'claude', env: { IS_SANDBOX: '1', PATH: process.env.PATH ?? '' } });
    expect(w.store.getWorker('T-1')!.agentVersion).toBe('2.1.50');
    const w2 = await world();
    await w2.dispatch();
    expect(w2.store.getWorker('T-1')!.agentVersion).toBeUndefined();
  });
});
