// One rule for whether the dist/ bundle may run: it exists and no source file under any folder
// the bundle is built from is newer. bin/hand.js and the bench (bench/lib/bundle.ts) both use
// it, so the list of source folders is written once (it missed contract/ and mock-agent/ when it
// was written twice, and `hand` ran a stale bundle after an edit only there).
import { existsSync, readdirSync, statSync } from 'node:fs';

/** Every top-level folder whose .ts files end up in dist/ (package.json's build script). */
export const SOURCE_DIRS = ['cli', 'daemon', 'actors', 'machines', 'io', 'persistence', 'contract', 'mock-agent'];

function newestSource(dir, newest) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) newest = newestSource(path, newest);
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * `root` ends with a slash; `entries` are bundle files under dist/ (every entry is built by
 * `npm run build`, so one freshness rule holds for each): fresh when each exists and no source
 * file is newer than the oldest of them.
 */
export function bundleIsFresh(root, entries = 'cli/main.js') {
  let built = Infinity;
  for (const entry of Array.isArray(entries) ? entries : [entries]) {
    const bundle = `${root}dist/${entry}`;
    if (!existsSync(bundle)) return false;
    built = Math.min(built, statSync(bundle).mtimeMs);
  }
  return SOURCE_DIRS.every((d) => !existsSync(`${root}${d}`) || newestSource(`${root}${d}`, 0) <= built);
}
