/**
 * The daemon's own commands and the offline tools, through the real binary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { HAND_BIN, makeCliWorld, type CliWorld } from './cli-harness.ts';

let w: CliWorld;
beforeAll(async () => {
  w = await makeCliWorld('cli-daemon', { binary: true });
});
afterAll(async () => {
  await w.cleanup();
});

describe('daemon', () => {
  it('any command starts the daemon; status --json names pid, home, socket, uptime and workers', async () => {
    expect((await w.hand(['projects', '--json'])).code).toBe(0);
    const s = await w.hand(['daemon', 'status', '--json']);
    expect(s.code).toBe(0);
    expect(s.json).toMatchObject({ running: true, home: w.home, socket: `${w.home}/hand.sock`, workers: 0 });
    expect(s.json.pid).toBeGreaterThan(0);
    expect(s.json.uptimeMs).toBeGreaterThanOrEqual(0);
    expect(statSync(w.home).mode & 0o777).toBe(0o700);
  });

  it('a second daemon on the same home refuses (lock) and names the running one', async () => {
    const r = await w.hand(['daemon', 'run']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/already|lock/i);
    expect((await w.hand(['daemon', 'status'])).code).toBe(0);
  });

  it('hand logs shows the daemon log readably', async () => {
    const r = await w.hand(['logs']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/INFO\s+daemon listening/);
  });

  it('daemon stop stops it; daemon status then says unreachable (exit 3)', async () => {
    expect((await w.hand(['daemon', 'stop'])).code).toBe(0);
    // the socket disappears once the daemon is gone
    for (let i = 0; i < 100; i++) {
      if ((await w.hand(['daemon', 'status'])).code === 3) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await w.hand(['daemon', 'status'])).code).toBe(3);
  });
});

describe('offline tools', () => {
  it('hand --version and --help', async () => {
    const v = await w.hand(['--version']);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const h = await w.hand(['--help']);
    expect(h.code).toBe(0);
    for (const cmd of ['dispatch', 'status', 'wait', 'send', 'keys', 'stop', 'doctor', 'demo']) expect(h.stdout).toContain(cmd);
  });

  it('hand doctor reports each check and exits 0 on this machine', async () => {
    const r = await w.hand(['doctor', '--json']);
    expect(r.code, r.stdout).toBe(0);
    const names = (r.json.checks as Array<{ name: string }>).map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['node', 'git', 'tmux', 'node-pty', 'better-sqlite3', 'claude', 'codex', 'state dir']));
  });

  it('hand doctor checks the Codex CLI binary and its version against the corpus', async () => {
    const r = await w.hand(['doctor', '--json']);
    const codex = (r.json.checks as Array<{ name: string; ok: boolean; detail: string }>).find((c) => c.name === 'codex');
    expect(codex).toMatchObject({ ok: true });
    expect(codex!.detail).toMatch(/^0\.169\.0 \(.*codex\), in the reader's corpus \(0\.100\.0 … 0\.171\.0\)$/);
  });

  it('hand doctor names the fix when a tool is missing', async () => {
    const r = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(process.execPath, [HAND_BIN, '--home', w.home, 'doctor'], { env: { ...w.env, PATH: '/nonexistent' } }, (err, stdout) => resolve({ code: err ? 1 : 0, stdout }));
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/git\s+not found[\s\S]*fix: .*apt-get install -y git/);
  });

  it('hand diagram prints Mermaid for the worker machine', async () => {
    const r = await w.hand(['diagram', 'worker']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('stateDiagram-v2');
    expect(r.stdout).toMatch(/blocked/);
  });

  it('hand screen inspect --json reports exactly the documented fields', async () => {
    const fixture = new URL('../fixtures/claude-code/2.1.332/07-ask-user-question.ansi.txt', import.meta.url).pathname;
    const r = await w.hand(['screen', 'inspect', fixture, '--json']);
    expect(r.code).toBe(0);
    expect(Object.keys(r.json).sort()).toEqual(['awaitingInput', 'blockedReason', 'fingerprint', 'lastActivity', 'promptBox', 'promptBoxKind', 'readable', 'state']);
    expect(r.json).toMatchObject({ state: 'blocked', awaitingInput: true, blockedReason: 'question', promptBox: null });
  });
});
