/**
 * bin/hand.js asks a quick read (`status --json`, `backlog ready --json`) before it has checked
 * the bundle against the sources, so the check overlaps the daemon's answer (issue 26: the check
 * is a few ms of every start). A bundle older than a source file must still answer nothing: the
 * sources run instead. Shown on a copy of bin/ beside a stand-in bundle and stand-in sources, each
 * saying who answered.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleIsFresh } from '../../bin/bundle-freshness.js';
import { makeTempDir } from '../helpers/temp.ts';

const REPO = resolve(import.meta.dirname, '../..');
let tmp: { path: string; cleanup: () => void } | null = null;
afterEach(() => {
  tmp?.cleanup();
  tmp = null;
});

/** A root with bin/ copied, a dist/ that answers "bundle …" and a cli/main.ts that answers "sources". */
function standInRoot(): string {
  tmp = makeTempDir('stale-bundle');
  const root = tmp.path;
  mkdirSync(join(root, 'bin'));
  for (const f of ['hand.js', 'bundle-freshness.js']) copyFileSync(join(REPO, 'bin', f), join(root, 'bin', f));
  copyFileSync(join(REPO, 'package.json'), join(root, 'package.json'));
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
  mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
  writeFileSync(join(root, 'dist', 'quick.js'), [
    "export const quickCommand = () => ({ kind: 'backlog-ready', home: undefined });",
    "export const quickRead = () => Promise.resolve(() => process.stdout.write('bundle quick read\\n'));",
    'export const quickWait = async () => 0;',
  ].join('\n'));
  writeFileSync(join(root, 'dist', 'cli', 'main.js'), "process.stdout.write('bundle main\\n');\n");
  mkdirSync(join(root, 'cli'));
  writeFileSync(join(root, 'cli', 'main.ts'), "process.stdout.write('sources\\n');\n");
  return root;
}

const age = (path: string, secondsAgo: number) => {
  const t = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(path, t, t);
};

const run = (root: string) => execFileSync(process.execPath, [join(root, 'bin', 'hand.js'), 'backlog', 'ready', '--json'], { encoding: 'utf8', env: { ...process.env, HAND_FROM_SOURCE: '' } });

describe('a stale bundle answers nothing', () => {
  it('a current bundle answers the quick read; one older than a source gives way to the sources', () => {
    const root = standInRoot();
    age(join(root, 'cli', 'main.ts'), 60);
    expect(bundleIsFresh(`${root}/`, ['cli/main.js', 'quick.js'])).toBe(true);
    expect(run(root)).toBe('bundle quick read\n');

    // A source edited after the build: the quick read was asked, but the sources answer.
    age(join(root, 'cli', 'main.ts'), 0);
    age(join(root, 'dist', 'quick.js'), 30);
    age(join(root, 'dist', 'cli', 'main.js'), 30);
    expect(bundleIsFresh(`${root}/`, ['cli/main.js', 'quick.js'])).toBe(false);
    expect(run(root)).toBe('sources\n');
  });

  it('the oldest entry counts: one entry rebuilt alone does not make the bundle current', () => {
    const root = standInRoot();
    age(join(root, 'cli', 'main.ts'), 20);
    age(join(root, 'dist', 'quick.js'), 60);
    expect(bundleIsFresh(`${root}/`, 'cli/main.js')).toBe(true);
    expect(bundleIsFresh(`${root}/`, ['cli/main.js', 'quick.js'])).toBe(false);
    expect(run(root)).toBe('sources\n');
  });
});
