/**
 * The real Claude Code binary as a far worker: it runs as the far account (its own HOME, its own
 * tmux), and reaches the fake Anthropic API only through an ssh reverse forward on the far
 * side's loopback (`ssh -R`), as a model API would be reached from a build box. Through `hand`:
 * dispatch → its Bash permission dialog (blocked) → one key → settled → report read back →
 * landed local-only into the far checkout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { CLAUDE_BIN } from '../harness/claude-binary.ts';
import { claudeTestEnv, seedClaudeHome } from '../harness/claude-env.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../harness/fake-anthropic.ts';
import { addFarHost, farGit, startFarShop, type FarShop } from '../harness/far-shop.ts';
import { sshOptions } from '../../io/ssh/ssh-command.ts';
import { makeTempDir, waitFor } from '../helpers/temp.ts';
import { waitStable, type WaitForScreen } from '../helpers/screen-stable.ts';

/** A port on the far side's loopback for the forward (the far side is this machine: a free port here is free there). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const c = connect(port, '127.0.0.1', () => {
      c.destroy();
      resolve(true);
    });
    c.on('error', () => resolve(false));
  });

describe('a real Claude Code worker on a far host', () => {
  let far: FarShop;
  let w: CliWorld;
  let fake: FakeAnthropic;
  let forward: ChildProcess | null = null;
  const local = makeTempDir('far-claude-ssh');
  let farPort = 0;
  const ok = async (args: string[], env?: Record<string, string>, timeoutMs?: number) => {
    const r = await w.hand([...args, '--json'], { ...(env && { env }), ...(timeoutMs && { timeoutMs }) });
    expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
    return r.json;
  };

  beforeAll(async () => {
    far = await startFarShop();
    fake = await startFakeAnthropic();
    const { sshd } = far;
    // Claude Code on the far account's PATH; its HOME seeded as a person would have it (onboarding
    // done, manual permissions so Bash asks); the folder trust is kingshand's seed.
    const bin = join(sshd.home, '.local', 'bin', 'claude');
    writeFileSync(bin, `#!/bin/sh\nexec '${realpathSync(CLAUDE_BIN)}' "$@"\n`, { mode: 0o755 });
    seedClaudeHome({ home: sshd.home, worktrees: [], manualPermissions: true, renderer: 'fullscreen' });
    for (const p of [bin, '.claude.json', '.claude', '.claude/settings.json', '.cctmp', '.ccrun']) chownSync(p.startsWith('/') ? p : join(sshd.home, p), sshd.uid, sshd.gid);
    // The reverse forward: the far loopback's port → the fake on ours, over the far account's ssh.
    farPort = await freePort();
    const target = sshd.target(local.path);
    forward = spawn('ssh', [...sshOptions({ ...target, controlPath: 'none' }), '-N', '-o', 'ExitOnForwardFailure=yes', '-R', `127.0.0.1:${farPort}:127.0.0.1:${fake.port}`, target.address], { stdio: 'ignore', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
    await waitFor(() => answers(farPort), { what: `the reverse forward on the far side's 127.0.0.1:${farPort}`, timeoutMs: 15_000 });
    w = await makeCliWorld('far-claude');
    await addFarHost(w, far);
    await ok(['annex', w.repo, '--name', 'shop', '--yolo', '--permissions', 'ask']);
    await ok(['project', 'host', 'shop', 'far', far.repo, '--default']);
  }, 90_000);
  afterAll(async () => {
    try {
      await w?.cleanup();
    } finally {
      forward?.kill('SIGKILL');
      await fake?.close();
      await far?.sshd.stop();
      local.cleanup();
    }
  });

  it('is dispatched there, asks for its Bash, is answered with a key, reports and lands there', async () => {
    const env = claudeTestEnv({ home: far.sshd.home, baseUrl: `http://127.0.0.1:${farPort}`, renderer: 'fullscreen' });
    const task = 'MODE:bash[[echo feature > feature.txt && git add feature.txt && git commit -q -m "Add the feature file"]]';
    const d = await ok(['dispatch', 'w1', '--repo', w.repo, '--brief', w.brief('w1', task), '--agent', 'claude'], env);
    expect(d).toMatchObject({ host: 'far', repo: far.repo, agent: 'claude' });
    // As a person does, read the dialog before confirming: Claude Code drops an Enter that comes
    // a few hundred ms after its menu appeared (tests/claude-e2e/worker-turns-through-hand.test.ts).
    const screen: WaitForScreen = (accept, what, timeoutMs = 15_000) =>
      waitFor(async () => {
        const text = (await ok(['read', 'w1'])).text as string;
        return accept(text) ? text : undefined;
      }, { what, timeoutMs, intervalMs: 200 });
    const approve = async (what: string) => {
      expect(await ok(['wait', 'w1', '--until', 'blocked', '--timeout', '60s'])).toMatchObject({ reason: 'blocked', blockedReason: 'permission' });
      await waitStable(screen, `${what}, settled`, { quietMs: 700, accept: (s) => /^ ❯ 1\. Yes$/m.test(s) });
      await ok(['keys', 'w1', 'enter']);
      await ok(['wait', 'w1', '--until', 'settled', '--timeout', '60s']);
    };
    await approve('the Bash permission dialog');
    // Every model request came through the forward, from the far account's Claude Code.
    expect(fake.received.length).toBeGreaterThan(0);
    expect(farGit(far.repo, 'log', '--format=%s', 'worktree-w1')).toContain('Add the feature file');
    const report = join(far.workerDir('w1'), 'report.md');
    await ok(['send', 'w1', `MODE:report ${report}`]);
    // Posture ask: the report's Write waits for a person too.
    await approve('the Write permission dialog');
    await waitFor(async () => (await ok(['status', 'w1']))[0].reportExists === true, { what: 'the far report read back', timeoutMs: 60_000 });
    expect(readFileSync(d.reportPath, 'utf8')).toBe(readFileSync(report, 'utf8'));
    const landed = await ok(['land', 'w1'], undefined, 90_000);
    expect(landed).toMatchObject({ stage: 'landed', landed: { target: 'main' }, teardown: { done: true } });
    expect(farGit(far.repo, 'log', '--format=%s', 'main')).toContain('Add the feature file');
  }, 120_000);
});
