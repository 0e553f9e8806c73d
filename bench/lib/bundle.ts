/**
 * Whether `bin/hand.js` will run the dist/ bundle (plain Node) rather than the sources through
 * tsx: the same rule it applies — the bundle exists and no source file is newer — so the CLI
 * round-trip figure says which of the two it measured.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
// Plain JS shared with bin/hand.js, which must run before any TypeScript loader exists.
import { bundleIsFresh as freshAt } from '../../bin/bundle-freshness.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export function bundleIsFresh(): boolean {
  return freshAt(root, ['cli/main.js', 'quick.js']);
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
