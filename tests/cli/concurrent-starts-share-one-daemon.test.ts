/**
 * Several `hand daemon start` at once on a fresh state directory all succeed against the one
 * daemon that wins the lock. Before, a start whose own daemon lost the race connected once, at
 * once, before the winner's socket was up, and exited 3 ("another daemon already holds…"):
 * 6 of 30 failed. The race is made deterministic here by holding the lock from the test (a winner
 * still starting up), then handing it to a real daemon.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, waitFor } from '../helpers/temp.ts';
import { HAND_BIN, handRunner, stopInstallation, type HandRunner } from '../helpers/hand-process.ts';
import { acquireHomeLock } from '../../persistence/home-lock.ts';
import { ensureHome } from '../../io/fs/ensure-home.ts';

let tmp: ReturnType<typeof makeTempDir>;
const env: Record<string, string> = {};
const homes: string[] = [];
beforeAll(() => {
  tmp = makeTempDir('concurrent-start');
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'HAND_HOME') env[k] = v;
});
afterAll(async () => {
  for (const home of homes) await stopInstallation(handRunner(home, env, 15_000), home, 15_000);
  tmp.cleanup();
});

function world(name: string): { home: string; hand: HandRunner } {
  const home = join(tmp.path, name);
  homes.push(home);
  return { home, hand: handRunner(home, env, 60_000) };
}

describe('concurrent starts share one daemon', () => {
  it('a start whose daemon lost the lock waits for the winner and connects to it', async () => {
    const { home, hand } = world('race');
    const paths = ensureHome(home);
    const winnerStillStarting = acquireHomeLock(home);
    const start = hand(['daemon', 'start', '--json']);
    await waitFor(() => existsSync(paths.daemonOut) && readFileSync(paths.daemonOut, 'utf8').includes('already holds the state directory'), {
      what: "the started daemon to find the lock taken",
      timeoutMs: 30_000,
    });
    // The winner finishes starting: a real daemon now takes the home and opens its socket.
    winnerStillStarting.release();
    const winner = spawn(process.execPath, [HAND_BIN, 'daemon', 'run', '--home', home], { env, stdio: 'ignore', detached: true });
    winner.unref();
    const r = await start;
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.pid).toBe(winner.pid);
  }, 90_000);

  it('six daemon starts at once on a fresh home all succeed, all naming the same daemon', async () => {
    const { hand } = world('six');
    const runs = await Promise.all(Array.from({ length: 6 }, () => hand(['daemon', 'start', '--json'])));
    expect(runs.filter((r) => r.code !== 0).map((r) => `exit ${r.code}: ${r.stderr.trim()}`)).toEqual([]);
    expect(new Set(runs.map((r) => r.json.pid)).size).toBe(1);
  }, 90_000);
});
