/**
 * The launch environment of the tmux pane that runs worker `id` (read from /proc): what a
 * worker's own commands inherit, for tests that act as the worker.
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { expect } from 'vitest';

export function workerPaneEnv(tmuxSocket: string, id: string): Record<string, string> {
  const pids = execFileSync('tmux', ['-S', tmuxSocket, 'list-panes', '-a', '-F', '#{pane_pid}'], { encoding: 'utf8' }).trim().split('\n');
  for (const pid of pids) {
    const env = Object.fromEntries(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter((kv) => kv.includes('=')).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
    if (env.HAND_WORKER_ID === id) return env;
  }
  return expect.fail(`no pane runs worker ${id} (pids ${pids.join(', ')})`);
}
