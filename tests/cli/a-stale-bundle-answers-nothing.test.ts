/**
 * bin/hand.js asks a quick read (`status --json`, `backlog ready --json`) before it has checked
 * the bundle against the sources, so the check overlaps the daemon's answer (issue 26: the check
 * is a few ms of every start). A bundle older than a source file must still answer nothing: the
 * sources run instead. Shown on a copy of bin/ beside a stand-in bundle and stand-in sources, each
 * saying who answered.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleIsFresh, SOURCE_DIRS } from '../../bin/bundle-freshness.js';
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

  it('every folder whose sources the bundle imports is one the freshness check watches', () => {
    // The folders the bundled entries reach: every top-level folder named in an import (static or
    // dynamic) of a product source (tests/, bench/ and scripts/ are not bundled). A new room (daemon/ was one)
    // missing from SOURCE_DIRS would let a stale bundle answer after an edit only there.
    const top = new Set(readdirSync(REPO));
    const rooms = new Set<string>(['cli', 'mock-agent']);
    const walk = (dir: string) => {
      for (const e of readdirSync(join(REPO, dir), { withFileTypes: true })) {
        const rel = `${dir}/${e.name}`;
        if (e.isDirectory()) walk(rel);
        else if (e.name.endsWith('.ts')) for (const m of readFileSync(join(REPO, rel), 'utf8').matchAll(/(?:from |import\()'((?:\.\.\/)+|\.\/)([a-z-]+)\//g)) {
          const room = resolve(join(REPO, dir), `${m[1]}${m[2]}`).slice(REPO.length + 1).split('/')[0]!;
          if (top.has(room) && !['tests', 'bench', 'scripts', 'node_modules'].includes(room)) rooms.add(room);
        }
      }
    };
    // Every room the entries reach, and every room those reach, each walked once.
    const walked = new Set<string>();
    for (let next = [...rooms].find((r) => !walked.has(r)); next; next = [...rooms].find((r) => !walked.has(r))) {
      walked.add(next);
      walk(next);
    }
    const bundled = [...rooms];
    expect(bundled.length).toBeGreaterThan(4);
    expect(bundled.filter((r) => !SOURCE_DIRS.includes(r)), 'folders the bundle is built from that bin/bundle-freshness.js does not watch').toEqual([]);
  });
});
