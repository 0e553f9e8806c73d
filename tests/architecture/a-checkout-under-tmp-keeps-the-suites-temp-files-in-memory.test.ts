/**
 * `npm test` puts the suite's /tmp in memory (scripts/suite-tmpfs.mjs), and a checkout that itself
 * lives under /tmp (a fresh clone made there) is carried into that /tmp, not left to run on the
 * disk: the run sees the checkout at its own path — the very directory, what it writes there stays
 * — while a file it makes elsewhere under /tmp is in the tmpfs and gone with the run.
 * Only as root on Linux (a mount namespace needs CAP_SYS_ADMIN), as the suite runs on CI.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inSuiteTmpfs } from '../../scripts/suite-tmpfs.mjs';
import { makeTempDir } from '../helpers/temp.ts';

const asRoot = process.platform === 'linux' && process.getuid?.() === 0;
let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

describe('a checkout under /tmp keeps the suite\'s temp files in memory', () => {
  it.runIf(asRoot)('runs at its own path with a tmpfs /tmp around it; its writes stay, the rest of /tmp goes', () => {
    const dir = makeTempDir('checkout');
    cleanup = dir.cleanup;
    expect(dir.path.startsWith('/tmp/')).toBe(true);
    writeFileSync(join(dir.path, 'package.json'), '{}\n');
    const probe = `/tmp/kh-suite-probe-${process.pid}-${Date.now()}`;
    const script = `stat -f -c %T /tmp; pwd; cat package.json; echo kept > kept.txt; echo made > ${probe}; ls -A /tmp`;
    const run = inSuiteTmpfs(['/bin/sh', '-c', script], dir.path);
    expect(run.inMemory, run.why).toBe(true);
    const out = spawnSync(run.argv[0]!, run.argv.slice(1), { encoding: 'utf8', cwd: '/', timeout: 10_000 });
    expect(out.status, out.stderr).toBe(0);
    const [fsType, cwd, pkg, ...tmpEntries] = out.stdout.trim().split('\n');
    expect(fsType).toBe('tmpfs');
    expect(cwd).toBe(dir.path);
    expect(pkg).toBe('{}');
    // Inside, /tmp holds only the way to the checkout and what the run made: none of the machine's names.
    expect(tmpEntries.sort()).toEqual([dir.path.split('/')[2], probe.split('/')[2]].sort());
    // The checkout was the real one (its write is there), the probe was in memory (gone).
    expect(readFileSync(join(dir.path, 'kept.txt'), 'utf8')).toBe('kept\n');
    expect(existsSync(probe)).toBe(false);
  });
});
