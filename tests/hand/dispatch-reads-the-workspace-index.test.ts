/**
 * One data index (issue 23 item 1): dispatch's "Read first" rule and the standing files read the
 * Hand workspace's data/ — where `hand index add` writes — found through the record `hand init`
 * leaves in the state directory, or named by --workspace / HAND_WORKSPACE. Both the root index
 * and the project's index (data/index/<project>.md) are consulted, and the refusal names the
 * indexed files. Through the binary, as the Hand runs it; gated dispatches create nothing to run.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDEX_CHECKED_LINE } from '../../io/brief/index.ts';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';

let w: CliWorld;
let ws: string;
beforeAll(async () => {
  w = await makeCliWorld('ws-index');
  ws = join(w.root, 'ws');
  const init = await w.hand(['init', ws, '--json']);
  expect(init.code, init.stdout + init.stderr).toBe(0);
  mkdirSync(join(ws, 'data', 'specs'), { recursive: true });
  writeFileSync(join(ws, 'data', 'specs', 'api.md'), '# API\n');
  const add = await w.hand(['index', 'add', join(ws, 'data', 'specs', 'api.md'), '--summary', 'the settled API', '--workspace', ws]);
  expect(add.code, add.stdout + add.stderr).toBe(0);
  mkdirSync(join(ws, 'data', 'index'));
  writeFileSync(join(ws, 'data', 'index', 'repo.md'), '# repo\n\n- `data/specs/brand.md` - the brand spec (added 2026-01-01)\n');
  writeFileSync(join(ws, 'data', 'done-repo.md'), '# Done for repo\n\n- Nothing standing yet.\n');
  const annex = await w.hand(['annex', w.repo, '--json']);
  expect(annex.code, annex.stdout + annex.stderr).toBe(0);
});
afterAll(async () => {
  await w?.cleanup();
});

const dispatch = (id: string, brief: string, extra: string[] = [], env?: Record<string, string>) =>
  w.hand(['dispatch', id, '--repo', w.repo, '--brief', brief, '--agent', 'mock', '--json', ...extra], env ? { env } : undefined);

describe('dispatch reads the workspace index', () => {
  it('a brief that names none of the indexed files is refused with the file names', async () => {
    const r = await dispatch('none', w.brief('none', 'Change the API.'));
    expect(r.code, r.stdout + r.stderr).not.toBe(0);
    const said = r.stdout + r.stderr;
    expect(said).toContain('index-not-consulted');
    expect(said).toContain('data/specs/api.md');
    expect(said).toContain('data/specs/brand.md');
  });

  it('with --read-path of an indexed file the brief is accepted, and the standing done file is staged', async () => {
    const r = await dispatch('read', w.brief('read', 'Change the API.'), ['--read-path', join(ws, 'data', 'specs', 'api.md')]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const brief = readFileSync(r.json.briefPath, 'utf8');
    expect(brief).toContain('read-first/api.md');
    expect(brief).toContain('read-first/done-repo.md');
  });

  it('the standing done file alone does not count as the index checked', async () => {
    const r = await dispatch('rote', w.brief('rote', 'Change the API.'), ['--read-path', join(ws, 'data', 'done-repo.md')]);
    expect(r.stdout + r.stderr).toContain('index-not-consulted');
  });

  it('with the "index checked" line the brief is accepted', async () => {
    const brief = join(w.root, 'checked.md');
    writeFileSync(brief, `# Brief\n\n## Read first\n\n${INDEX_CHECKED_LINE}\n\n## Task\n\nTidy the README.\n`);
    const r = await dispatch('checked', brief);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('--workspace and HAND_WORKSPACE name another workspace; a directory that is none is refused', async () => {
    const other = join(w.root, 'ws2');
    expect((await w.hand(['init', other])).code).toBe(0);
    // init records the newest workspace: ws again, so the flag and the variable are what differ.
    expect((await w.hand(['init', ws])).code).toBe(0);
    expect((await dispatch('flag', w.brief('flag', 'x'), ['--workspace', other])).code).toBe(0);
    expect((await dispatch('envws', w.brief('envws', 'x'), [], { HAND_WORKSPACE: other })).code).toBe(0);
    const bad = await dispatch('bad', w.brief('bad', 'x'), ['--workspace', w.repo]);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout + bad.stderr).toContain('not-a-workspace');
  });
});
