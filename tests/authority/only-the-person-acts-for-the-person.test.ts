/**
 * Rule: only the person acts for the person (issue 24 item 1). A worker's Bash ran
 * `node <kingshand>/bin/hand.js approve victim` and another project's branch landed: the socket
 * could not tell the person's call from a worker's. Now the daemon writes `<state>/authority.key`
 * (0600) at its first start, the person's faces present it on every request, and every method
 * but `ping` and `hook` refuses a request without it (`not-the-person`) before it runs.
 *
 * A worker's sandbox denies it reads of the state directory; here `bwrap` plays that part for
 * the worker's process (only the key is hidden, so the socket stays reachable — the hardest case).
 */
import { connect } from 'node:net';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDaemonWorld } from '../helpers/daemon-world.ts';
import { makeCliWorld } from '../cli/cli-harness.ts';
import { HAND_BIN, runProcess } from '../helpers/hand-process.ts';
import { workerPaneEnv } from '../helpers/pane-env.ts';

const newWorld = useDaemonWorld();

/** One request over the raw socket, with no key unless `authority` is given; bounded. */
function bare(socket: string, method: string, params: Record<string, unknown> = {}, authority?: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const sock = connect(socket);
    let buf = '';
    const timer = setTimeout(() => (sock.destroy(), reject(new Error(`no reply to ${method} within 10 s`))), 10_000);
    sock.on('data', (d) => {
      buf += d.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      sock.destroy();
      resolve(JSON.parse(buf.slice(0, nl)));
    });
    sock.on('error', (e) => (clearTimeout(timer), reject(e)));
    sock.write(`${JSON.stringify({ id: 7, method, params, ...(authority !== undefined ? { authority } : {}) })}\n`);
  });
}

const PERSON_ONLY: [string, Record<string, unknown>][] = [
  ['approve', { id: 'victim' }], ['reject', { id: 'victim' }], ['land', { id: 'victim' }], ['decide', { key: 'k', answer: 'yes' }],
  ['projectSet', { name: 'shop', permissions: 'off' }], ['annex', { repo: '/tmp' }], ['notify.add', { kind: 'ntfy', target: 'x' }],
  ['afk.off', {}], ['discard', { id: 'victim' }], ['relaunch', { id: 'victim' }], ['stop', { id: 'victim' }], ['review', {}],
  ['shutdown', {}], ['dispatch', { id: 'x' }], ['send', { id: 'victim', text: 'hi' }], ['keys', { id: 'victim', keys: ['enter'] }],
];

describe('only the person acts for the person', () => {
  it("a request without the person's key is refused before any person-only method runs, naming why; hook and ping stay open", async () => {
    const w = await newWorld('authority-socket');
    const keyFile = join(w.home, 'authority.key');
    expect(statSync(keyFile).mode & 0o777, 'the key is private').toBe(0o600);
    expect(readFileSync(keyFile).length, '32 random bytes').toBe(32);

    for (const [method, params] of PERSON_ONLY) {
      const r = await bare(w.paths.socket, method, params);
      expect(r.ok, `${method} without the key`).toBe(false);
      expect(r.error.code, `${method} without the key: ${r.error.message}`).toBe('not-the-person');
      expect(r.error.message).toContain(method);
      expect(r.error.message).toContain('authority.key');
    }
    const wrong = await bare(w.paths.socket, 'approve', { id: 'victim' }, '00'.repeat(32));
    expect(wrong.error.code, 'a wrong key is no key').toBe('not-the-person');

    // The daemon is still up (shutdown was refused), ping answers anyone, a hook is judged by its capability.
    expect((await bare(w.paths.socket, 'ping')).ok).toBe(true);
    const hook = await bare(w.paths.socket, 'hook', { note: { id: 'a1', event: 'Stop', at: Date.now() } });
    expect(hook.error?.code).toBe('hook-not-yours');

    // The person's client presents the key: the same methods run.
    expect(await w.call('projects')).toEqual(expect.any(Array));
    expect((await w.refusal('approve', { id: 'victim' })).code, "the person's approve reaches the method").not.toBe('not-the-person');
  });

  it("a worker's process that cannot read the key can neither approve another worker's landing nor switch its project's permissions off", async () => {
    const w = await makeCliWorld('authority-worker');
    try {
      const ok = async (args: string[], what: string, env: Record<string, string> = {}) => {
        const r = await w.hand([...args, '--json'], { timeoutMs: 90_000, env });
        expect(r.code, `${what}: ${r.stderr || r.stdout}`).toBe(0);
        return r.json;
      };
      await ok(['annex', w.repo, '--posture', 'local-only'], 'annex');
      const project = (await ok(['projects'], 'projects'))[0].name as string;
      await ok(['project', 'set', project, '--permissions', 'ask'], "the person's own setting");
      const d = await ok(['dispatch', 'v1', '--repo', w.repo, '--brief', w.brief('v1', 'Make the change.'), '--agent', 'mock'], 'dispatch v1', { KH_MOCK_RUN_BASH: '1' });
      await ok(['approve', 'v1'], 'the brief approved by the person');
      await ok(['wait', 'v1', '--until', 'settled', '--timeout', '30s'], 'v1 settles');
      await ok(['send', 'v1', 'MODE:bash[[echo f > f.txt && git add f.txt && git commit -q -m "Add f"]]'], 'send');
      await ok(['wait', 'v1', '--until', 'blocked', '--timeout', '30s'], 'the Bash permission');
      await ok(['keys', 'v1', 'enter'], 'keys');
      await ok(['wait', 'v1', '--until', 'settled', '--timeout', '30s'], 'v1 settles');
      await ok(['send', 'v1', `MODE:report ${d.reportPath}`], 'report');
      await ok(['wait', 'v1', '--until', 'settled', '--timeout', '30s'], 'v1 settles');
      await ok(['land', 'v1'], 'land opens the gate');
      const mainBefore = execFileSync('git', ['-C', w.repo, 'rev-parse', 'main'], { encoding: 'utf8' }).trim();

      // The worker's own environment, as its commands inherit it; its sandbox hides the key.
      const env = workerPaneEnv(join(w.home, 'tmux.sock'), 'v1');
      const asWorker = (args: string[]) =>
        runProcess(['bwrap', '--dev-bind', '/', '/', '--ro-bind', '/dev/null', join(w.home, 'authority.key'), process.execPath, HAND_BIN, '--home', w.home, ...args, '--json'], env, 60_000);

      const approve = await asWorker(['approve', 'v1']);
      expect(approve.code, approve.stdout + approve.stderr).toBe(1);
      expect(approve.json?.error?.code).toBe('not-the-person');
      expect(execFileSync('git', ['-C', w.repo, 'rev-parse', 'main'], { encoding: 'utf8' }).trim(), 'main unmoved').toBe(mainBefore);
      const set = await asWorker(['project', 'set', project, '--permissions', 'off']);
      expect(set.json?.error?.code, set.stdout + set.stderr).toBe('not-the-person');
      expect((await ok(['projects'], 'projects'))[0], 'the setting unchanged').toMatchObject({ permissions: 'ask' });

      // The person's CLI still does both.
      const landed = await ok(['approve', 'v1'], "the person's approve");
      expect(landed).toMatchObject({ stage: 'landed' });
    } finally {
      await w.cleanup();
    }
  }, 180_000);
});
