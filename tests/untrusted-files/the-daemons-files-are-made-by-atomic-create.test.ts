/**
 * Rule: the daemon's files for a worker are made by atomic create (issue 37 item 2,
 * io/fs/atomic-create.ts): a link planted at the name is replaced, never written through; a
 * directory that is a link is refused; the first-prompt mark and the Gemini deny policy, written
 * into a worker's directory, go the same way. Each is tried with the link a worker would plant.
 */
import { lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyFileAtomically, createFileAtomically } from '../../io/fs/atomic-create.ts';
import { firstPromptMarkPath, readFirstPromptMark, writeFirstPromptMark } from '../../io/brief/submission-mark.ts';
import { DENY_POLICY_FILE, writeDenyPolicy } from '../../io/agent/gemini/deny-policy.ts';
import { makeTempDir } from '../helpers/temp.ts';

let tmp: ReturnType<typeof makeTempDir> | undefined;
afterEach(() => tmp?.cleanup());

function world() {
  tmp = makeTempDir('atomic-create');
  const root = tmp.path;
  const persons = join(root, 'persons-file.txt');
  writeFileSync(persons, 'the person wrote this\n');
  const workerDir = join(root, 'workers', 'w1');
  mkdirSync(workerDir, { recursive: true });
  return { root, persons, workerDir };
}

describe("the daemon's files are made by atomic create", () => {
  it("a link at the name is replaced by the file; the person's file it pointed at is untouched", () => {
    const w = world();
    const target = join(w.workerDir, 'progress-note.md');
    symlinkSync(w.persons, target);
    createFileAtomically(target, 'the note\n');
    expect(readFileSync(w.persons, 'utf8')).toBe('the person wrote this\n');
    expect(lstatSync(target).isFile()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('the note\n');
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readdirSync(w.workerDir), 'no temp file is left').toEqual(['progress-note.md']);
  });

  it('a copy replaces a link at its name too, and refuses a source that is not a regular file', () => {
    const w = world();
    const dest = join(w.workerDir, 'spec.md');
    symlinkSync(w.persons, dest);
    const source = join(w.root, 'spec.md');
    writeFileSync(source, '# Spec\n');
    copyFileAtomically(source, dest);
    expect(readFileSync(w.persons, 'utf8')).toBe('the person wrote this\n');
    expect(readFileSync(dest, 'utf8')).toBe('# Spec\n');
    expect(() => copyFileAtomically('/dev/null', join(w.workerDir, 'null.md'))).toThrow(/not a regular file|no longer a regular file/);
  });

  it('a directory that is a link is refused: nothing is written where it points', () => {
    const w = world();
    const elsewhere = join(w.root, 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(w.root, 'workers', 'w2'));
    expect(() => createFileAtomically(join(w.root, 'workers', 'w2', 'brief.md'), 'x')).toThrow(/symbolic link/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it("the first-prompt mark linked to the person's file: the mark is written as a file of its own", () => {
    const w = world();
    symlinkSync(w.persons, firstPromptMarkPath(w.workerDir));
    writeFirstPromptMark(w.workerDir, { paneId: '%1', at: 1 });
    expect(readFileSync(w.persons, 'utf8')).toBe('the person wrote this\n');
    expect(readFirstPromptMark(w.workerDir, '%1')).toEqual({ paneId: '%1', at: 1 });
  });

  it('a first-prompt mark that is a link is never read through', () => {
    const w = world();
    writeFileSync(join(w.root, 'forged.json'), JSON.stringify({ paneId: '%1', at: 1 }));
    symlinkSync(join(w.root, 'forged.json'), firstPromptMarkPath(w.workerDir));
    expect(readFirstPromptMark(w.workerDir, '%1')).toBeNull();
  });

  it("Gemini's deny policy linked to the person's file: the policy is written as a file of its own", () => {
    const w = world();
    symlinkSync(w.persons, join(w.workerDir, DENY_POLICY_FILE));
    writeDenyPolicy(w.workerDir, { agentHome: '/home/p' });
    expect(readFileSync(w.persons, 'utf8')).toBe('the person wrote this\n');
    expect(lstatSync(join(w.workerDir, DENY_POLICY_FILE)).isFile()).toBe(true);
  });
});
