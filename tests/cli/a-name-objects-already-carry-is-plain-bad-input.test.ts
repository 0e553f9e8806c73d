/**
 * Rule: a name JavaScript's objects already carry is plain bad input (issue 43). Worker ids
 * `constructor`, `toString`, `hasOwnProperty` and `valueOf` were accepted and then "failed before
 * it started: unknown reason" (the fleet's registry said such an id already existed). Now each is
 * refused where it is read, exit 2, naming the name and what to pick — for a worker, a project, a
 * backlog item and a host alike — and nothing is made.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from '../helpers/cli-world.ts';

const makeWorld = useCliWorld();
const NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'];

describe("a name objects already carry is plain bad input", () => {
  it('worker ids, project names, item ids and host names are refused before anything is made', async () => {
    const w = await makeWorld('prototype-names');
    expect((await w.hand(['annex', w.repo, '--yolo', '--json'])).code).toBe(0);
    for (const name of NAMES) {
      const d = await w.hand(['dispatch', name, '--repo', w.repo, '--brief', w.brief(`b-${name}`, 'Say hi.'), '--agent', 'mock', '--json']);
      expect(d.code, `${name}: ${d.stdout}${d.stderr}`).toBe(2);
      expect(d.json.error.message).toMatch(name === '__proto__' ? /not usable|already carry/ : /a name JavaScript's objects already carry/);
      expect(existsSync(join(w.repo, '.claude', 'worktrees', name)), `${name}: no worktree`).toBe(false);
      const a = await w.hand(['annex', w.repo, '--name', name, '--json']);
      expect(a.code, `annex --name ${name}`).toBe(2);
      const i = await w.hand(['backlog', 'add', name, '--project', 'repo', 'A task', '--json']);
      expect(i.code, `backlog add ${name}`).toBe(2);
    }
    const h = await w.hand(['host', 'add', 'constructor', 'someone@127.0.0.1', '--json']);
    expect(h.code).toBe(2);
    expect(h.json.error.message).toMatch(/already carry/);
    // An ordinary id still goes through.
    expect((await w.hand(['dispatch', 'constructor-1', '--repo', w.repo, '--brief', w.brief('ok', 'Say hi.'), '--agent', 'mock', '--json'])).code).toBe(0);
  }, 60_000);
});
