/**
 * Rule: dispatch says which of the caller's variables it kept from the worker (names only), and
 * the running worker process has none of them — read from the process itself (/proc/<pid>/environ),
 * not from what the launcher was asked to do. The hooks still reach the daemon (by --home).
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { useDaemonWorld } from '../helpers/daemon-world.ts';

const newWorld = useDaemonWorld();
const SECRETS = { AWS_SECRET_ACCESS_KEY: 'aws-secret-value-7', GITHUB_TOKEN: 'ghp_secretvalue7', NPM_TOKEN: 'npm_secretvalue7' };

function environOfPane(tmuxSocket: string): Record<string, string> {
  // The worker's pane is the one running the mock agent (the host's monitor pane runs tail).
  const pids = execFileSync('tmux', ['-S', tmuxSocket, 'list-panes', '-a', '-F', '#{pane_pid}'], { encoding: 'utf8' }).trim().split('\n');
  const pid = pids.find((p) => readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('mock-agent'));
  expect(pid, `a pane runs the mock agent among ${pids.join(', ')}`).toBeDefined();
  const env: Record<string, string> = {};
  for (const pair of readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
    const i = pair.indexOf('=');
    if (i > 0) env[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return env;
}

describe('dispatch names the caller variables it left out', () => {
  it('the result lists the secrets by name; the worker process has none of them, nor HAND_HOME', async () => {
    const w = await newWorld('env-left-out');
    await w.call('annex', { repo: w.repo, yolo: true });
    const r = await w.dispatch('w1', 'Say hello.', { env: { ...w.env, ...SECRETS, HAND_HOME: w.home } });
    expect(r.envLeftOut).toEqual(expect.arrayContaining([...Object.keys(SECRETS), 'HAND_HOME']));
    expect(JSON.stringify(r)).not.toContain('secretvalue7');
    expect(JSON.stringify(r)).not.toContain('aws-secret-value-7');
    // Settled: the mock agent drew its screen, so the launcher has exec'd it with its environment.
    await w.call('wait', { id: 'w1', until: 'settled', timeoutMs: 30_000 });
    const env = environOfPane(w.paths.tmuxSocket);
    expect(env.HAND_WORKER_ID, 'the pane read is the worker').toBe('w1');
    for (const name of [...Object.keys(SECRETS), 'HAND_HOME']) expect(env, name).not.toHaveProperty(name);
    expect(env.HOME).toBe(w.agentHome);
    await w.call('stop', { id: 'w1', timeoutMs: 15_000 });
  });
});
