/**
 * Issue 25 #3: a frozen daemon (SIGSTOP) made every CLI call, `hand daemon status` included, and
 * every MCP tool call hang with no bound. Now each call is bounded, exits 3 (daemon unreachable)
 * and names what it waited for, the pid, and the way out; `daemon status` reads the pid's state
 * without sending a request. The real binary against a real daemon process: the point is a
 * process that cannot answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeTempDir } from '../helpers/temp.ts';
import { HAND_BIN, handRunner, stopInstallation, type HandRunner } from '../helpers/hand-process.ts';
import { isProcessAlive } from '../helpers/processes.ts';

/**
 * The ordinary reply bound for this test's calls: short, so the test is quick. A frozen daemon
 * never answers, so every call here waits the whole bound (three of them): 1 s, not 2 s.
 */
const BOUND_MS = 1000;
const WITHIN = `within ${BOUND_MS / 1000}s`;
let tmp: ReturnType<typeof makeTempDir>;
let home: string;
let env: Record<string, string>;
let hand: HandRunner;
let pid = 0;

beforeAll(async () => {
  tmp = makeTempDir('frozen');
  home = join(tmp.path, 'state');
  env = { HAND_REPLY_BOUND_MS: String(BOUND_MS) };
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'HAND_HOME') env[k] ??= v;
  // A runner bound well past the client's own: old code hung, and this kills it after 20 s.
  hand = handRunner(home, env, 20_000);
  const r = await hand(['daemon', 'start', '--json']);
  expect(r.code, r.stderr).toBe(0);
  pid = r.json.pid;
  process.kill(pid, 'SIGSTOP');
}, 60_000);

afterAll(async () => {
  // a stopped process is resumed before it is asked to stop (or killed)
  if (pid && isProcessAlive(pid)) process.kill(pid, 'SIGCONT');
  await stopInstallation(hand, home, 15_000);
  tmp.cleanup();
}, 60_000);

describe('a frozen daemon is named within a bound', () => {
  it('hand status against a stopped daemon exits 3 within its bound and names the wait, the pid and the fix', async () => {
    const r = await hand(['status']);
    expect(r.code, r.stderr).toBe(3);
    expect(r.endedAt - r.startedAt).toBeLessThan(BOUND_MS + 8000);
    expect(r.stderr).toContain(`the daemon (pid ${pid}) did not answer status ${WITHIN}`);
    expect(r.stderr).toContain(`it is stopped (SIGSTOP or a debugger): \`kill -CONT ${pid}\` resumes it`);
    expect(r.stderr).toContain('hand daemon status');
  });

  it('hand daemon status says frozen from the pid, without waiting on the socket', async () => {
    const r = await hand(['daemon', 'status', '--json']);
    expect(r.code, r.stderr).toBe(3);
    expect(r.endedAt - r.startedAt).toBeLessThan(8000);
    expect(r.stderr).toMatch(new RegExp(`a daemon \\(pid ${pid}\\) holds .* but does not answer: it is frozen, stopped`));
    expect(r.stderr).toContain(`kill -CONT ${pid}`);
  });

  it('an MCP tool call against a stopped daemon is a tool error naming the wait, and hand mcp keeps serving', async () => {
    const client = new Client({ name: 'kh-test', version: '0.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [HAND_BIN, '--home', home, 'mcp'], env, stderr: 'pipe' }));
    try {
      const call = () => client.callTool({ name: 'status', arguments: {} }, undefined, { timeout: 15_000 }) as Promise<{ isError?: boolean; content: { text: string }[] }>;
      const first = await call();
      expect(first.isError).toBe(true);
      expect(first.content[0]!.text).toContain(`the daemon (pid ${pid}) did not answer status ${WITHIN}`);
      const again = await call();
      expect(again.isError).toBe(true);
    } finally {
      await client.close();
    }
  }, 40_000);
});
