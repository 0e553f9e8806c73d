/**
 * The suite checks its own hygiene: after every run, no tmux server, process or temp
 * directory made by a test may remain (DEVELOPERS.md: clean up everything a test creates).
 */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { TEST_PREFIX } from './helpers/temp.ts';

function leftovers(): string[] {
  const found: string[] = [];
  for (const name of readdirSync(tmpdir())) {
    if (name.startsWith(TEST_PREFIX)) found.push(`temp dir ${name}`);
  }
  let ps = '';
  try {
    ps = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  } catch {
    return found;
  }
  for (const line of ps.split('\n')) {
    if (line.includes(TEST_PREFIX) && !line.includes('ps -eo')) found.push(`process ${line.trim()}`);
  }
  return found;
}

export default function setup() {
  return async function teardown() {
    // give processes that were just signalled a moment to leave
    let left = leftovers();
    for (let i = 0; i < 40 && left.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = leftovers();
    }
    if (left.length > 0) {
      throw new Error(`tests left these behind (each test must clean up what it creates):\n  ${left.join('\n  ')}`);
    }
  };
}
