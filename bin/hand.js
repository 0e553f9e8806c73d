#!/usr/bin/env node
// Entry point of the `hand` command. `npm ci` (prepare) and `npm test` build a bundle into
// dist/ so a command starts in plain Node; the TypeScript sources run through tsx's loader
// (a few hundred ms per start) when there is no bundle, when HAND_FROM_SOURCE=1, or when any
// source file is newer than the bundle — a stale bundle must never run in a working copy.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bundle = `${root}dist/cli/main.js`;
const SOURCE_DIRS = ['cli', 'actors', 'machines', 'io', 'persistence', 'mcp'];

function newestSource(dir, newest) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) newest = newestSource(path, newest);
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function bundleIsFresh() {
  if (process.env.HAND_FROM_SOURCE || !existsSync(bundle)) return false;
  const built = statSync(bundle).mtimeMs;
  return SOURCE_DIRS.every((d) => !existsSync(`${root}${d}`) || newestSource(`${root}${d}`, 0) <= built);
}

if (bundleIsFresh()) {
  await import(new URL('../dist/cli/main.js', import.meta.url).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../cli/main.ts');
}
