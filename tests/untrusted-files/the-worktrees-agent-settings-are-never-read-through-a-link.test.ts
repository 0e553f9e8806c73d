/**
 * Rule: the worktree is the worker's, so the agent settings the daemon merges there are read as a
 * stranger's file (issue 37): Gemini CLI's .gemini/settings.json, merged on every seed, was read
 * through a link — a JSON credential it pointed at would have been merged into the worker's own
 * settings, for the worker to read. Refused now, with why, and left as it was. The same for the
 * repository's local exclude file, which a sandboxed worker can write (its commits write the git
 * directory): a link there was appended through.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeGeminiSettings } from '../../io/agent/gemini/workspace-settings.ts';
import { addLocalExcludes } from '../../io/git/local-exclude.ts';
import { makeTempDir } from '../helpers/temp.ts';

let tmp: ReturnType<typeof makeTempDir> | undefined;
afterEach(() => tmp?.cleanup());

describe("the worktree's agent settings are never read through a link", () => {
  it('.gemini/settings.json linked to a JSON credential: the link is replaced, never read, and the credential goes nowhere', async () => {
    tmp = makeTempDir('settings-link');
    const worktree = join(tmp.path, 'repo');
    const briefDir = join(tmp.path, 'workers', 'w1');
    mkdirSync(join(worktree, '.gemini'), { recursive: true });
    mkdirSync(briefDir, { recursive: true });
    execFileSync('git', ['init', '-q', worktree]);
    const credential = join(tmp.path, 'credentials.json');
    writeFileSync(credential, JSON.stringify({ client_secret: 'GCLOUD-SECRET-9d2' }));
    symlinkSync(credential, join(worktree, '.gemini', 'settings.json'));
    await writeGeminiSettings({ worktree, briefDir, env: {} });
    expect(readFileSync(credential, 'utf8')).toBe(JSON.stringify({ client_secret: 'GCLOUD-SECRET-9d2' }));
    expect(lstatSync(join(worktree, '.gemini', 'settings.json')).isFile(), 'a file of the daemon\'s in place of the link').toBe(true);
    expect(readFileSync(join(worktree, '.gemini', 'settings.json'), 'utf8'), 'nothing of the credential merged').not.toContain('GCLOUD-SECRET');
  });

  it('.gemini/settings.json as a FIFO: removed at once, never waited on', async () => {
    tmp = makeTempDir('settings-fifo');
    const worktree = join(tmp.path, 'repo');
    mkdirSync(join(worktree, '.gemini'), { recursive: true });
    execFileSync('git', ['init', '-q', worktree]);
    execFileSync('mkfifo', [join(worktree, '.gemini', 'settings.json')]);
    const started = Date.now();
    await writeGeminiSettings({ worktree, briefDir: tmp.path, env: {} });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(lstatSync(join(worktree, '.gemini', 'settings.json')).isFile()).toBe(true);
  });

  it("the local exclude file linked to the person's file: refused, the person's file unchanged", async () => {
    tmp = makeTempDir('exclude-link');
    const persons = join(tmp.path, 'persons-file');
    writeFileSync(persons, 'the person wrote this\n');
    mkdirSync(join(tmp.path, 'git', 'info'), { recursive: true });
    const exclude = join(tmp.path, 'git', 'info', 'exclude');
    symlinkSync(persons, exclude);
    await expect(addLocalExcludes(exclude, ['/.gemini/settings.json'])).rejects.toThrow(/symbolic link/);
    expect(readFileSync(persons, 'utf8')).toBe('the person wrote this\n');
  });
});
