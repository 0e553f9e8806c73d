/**
 * Whether `bin/hand.js` will run the dist/ bundle (plain Node) rather than the sources through
 * tsx: the same rule it applies — the bundle exists and no source file is newer — so the CLI
 * round-trip figure says which of the two it measured.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const SOURCE_DIRS = ['cli', 'actors', 'machines', 'io', 'persistence'];

function newest(dir: string, acc: number): number {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) acc = newest(path, acc);
    else if (e.name.endsWith('.ts')) acc = Math.max(acc, statSync(path).mtimeMs);
  }
  return acc;
}

export function bundleIsFresh(): boolean {
  const bundle = `${root}dist/cli/main.js`;
  if (!existsSync(bundle)) return false;
  const built = statSync(bundle).mtimeMs;
  return SOURCE_DIRS.every((d) => !existsSync(`${root}${d}`) || newest(`${root}${d}`, 0) <= built);
}

/**
 * Builds dist/ (`npm run build`, what `npm ci` runs as prepare) when it is missing or older than
 * a source file: the round trip a user pays is the bundle's. Returns whether it is fresh after.
 */
export function ensureBundle(log?: (m: string) => void): boolean {
  if (bundleIsFresh()) return true;
  try {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'ignore', timeout: 120_000 });
    log?.('dist/ bundle was missing or stale: rebuilt with npm run build');
  } catch (err) {
    log?.(`npm run build failed (${String(err)}): the round trip runs from sources`);
  }
  return bundleIsFresh();
}
