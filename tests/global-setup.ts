/**
 * The suite checks its own hygiene: after every run, no tmux server, process or temp
 * directory made by a test may remain (DEVELOPERS.md: clean up everything a test creates).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { TEST_PREFIX } from './helpers/temp.ts';

/** Only what this run made counts: another run on the same machine is not our leak. */
function leftovers(since: number, prefix: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(prefix)) continue;
    try {
      if (statSync(join(tmpdir(), name)).birthtimeMs >= since - 1000) found.push(`temp dir ${name}`);
    } catch {
      // removed while we looked
    }
  }
  let ps = '';
  try {
    ps = execFileSync('ps', ['-eo', 'pid=,etimes=,args='], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  } catch {
    return found;
  }
  const ageLimit = (Date.now() - since) / 1000 + 1;
  for (const line of ps.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (!m || !m[3]!.includes(prefix) || Number(m[1]) === process.pid) continue;
    if (/^(ps|grep|pgrep)\b/.test(m[3]!)) continue;
    if (Number(m[2]) <= ageLimit) found.push(`process ${m[1]} ${m[3]}`);
  }
  return found;
}

export default function setup() {
  const since = Date.now();
  // Test workers inherit this: every name this run makes carries it (tests/helpers/temp.ts).
  process.env.KH_TEST_RUN = randomBytes(3).toString('hex');
  const prefix = `${TEST_PREFIX}${process.env.KH_TEST_RUN}-`;
  return async function teardown() {
    // give processes that were just signalled a moment to leave
    let left = leftovers(since, prefix);
    for (let i = 0; i < 40 && left.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = leftovers(since, prefix);
    }
    if (left.length > 0) {
      // vitest reports a throwing teardown but still exits 0: fail the run explicitly.
      process.exitCode = 1;
      throw new Error(`tests left these behind (each test must clean up what it creates):\n  ${left.join('\n  ')}`);
    }
  };
}
