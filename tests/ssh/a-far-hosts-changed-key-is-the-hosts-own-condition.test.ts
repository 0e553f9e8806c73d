/**
 * Rule (issue 43): a far host whose key changed between dispatch and resume is the host's own
 * condition. Against the real sshd and second account: two mock workers dispatched there, the
 * daemon SIGKILLed, its ssh master killed, the sshd's host key replaced, and the next command
 * resumes. Every worker on the host reads "could not tell — host key changed" with how to
 * verify and accept the key (status, the page), `send` is refused naming the condition and
 * nothing reaches the pane, `hand host check` says the key changed and the fingerprint offered;
 * `hand host trust` with a file holding the new key brings both workers back. Before, `send`
 * answered "internal error … tmux send-keys failed (exit 255): @@@ WARNING: REMOTE HOST
 * IDENTIFICATION HAS CHANGED" and no worker said why it could not be told.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopAfter } from '../harness/sshd.ts';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { killDaemon } from '../faults/fault-world.ts';
import { addFarHost, placeShopOnFar, startFarShop, type FarShop } from '../harness/far-shop.ts';
import { reviewSession } from '../helpers/review-session.ts';
import { waitFor } from '../helpers/temp.ts';

interface Row { id: string; condition: string; live: boolean | null; host: string; problem: string | null }

let far: FarShop;
let w: CliWorld;
const ok = async (args: string[]) => {
  const r = await w.hand([...args, '--json']);
  expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
  return r.json;
};
const rows = async (): Promise<Row[]> => ((await ok(['status'])) as Row[]).sort((a, b) => a.id.localeCompare(b.id));
/** The far account's tmux (its server refuses other users). */
const farTmux = (...args: string[]) =>
  execFileSync('runuser', ['-u', far.sshd.user, '--', 'tmux', '-S', join(far.sshd.home, '.kingshand', 'tmux', 'tmux.sock'), '-f', '/dev/null', ...args], { encoding: 'utf8' });
const farScreen = (id: string): string => {
  const pane = farTmux('list-panes', '-a', '-F', '#{pane_id} #{@kh_name}').split('\n').find((l) => l.endsWith(` ${id}`))!.split(' ')[0]!;
  return farTmux('capture-pane', '-p', '-t', pane);
};

beforeAll(async () => {
  far = await startFarShop();
  w = await makeCliWorld('far-key', { daemonProcess: true });
  await addFarHost(w, far);
  await placeShopOnFar(w, far);
  await Promise.all(['w1', 'w2'].map((id) => ok(['dispatch', id, '--repo', w.repo, '--brief', w.brief(id, 'Say hello.'), '--agent', 'mock'])));
  await Promise.all(['w1', 'w2'].map((id) => ok(['wait', id, '--until', 'settled', '--timeout', '30s'])));
}, 120_000);
afterAll(() => stopAfter(w, far?.sshd));

describe("a far host's changed key is the host's own condition", () => {
  let rotated: { knownHostsFile: string; fingerprint: string };

  it('after a resume with the key changed, every worker there reads could not tell — host key changed, with how to verify and accept it', async () => {
    await killDaemon(w);
    // The master made with the old key goes too: the resume needs a new connection.
    const masters = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }).split('\n').filter((l) => l.includes(`${join(w.home, 'ssh')}/cm-`) && l.includes('[mux]'));
    for (const m of masters) process.kill(Number(m.trim().split(/\s+/)[0]), 'SIGKILL');
    rotated = await far.sshd.rotateHostKey();
    const after = await waitFor(async () => {
      const r = await rows();
      return r.every((x) => x.condition === 'wait-failed' && x.problem?.startsWith('could not tell — host key changed')) ? r : undefined;
    }, { what: 'both far workers could-not-tell for the changed key', timeoutMs: 45_000 });
    for (const r of after) {
      expect(r.problem).toContain(rotated.fingerprint);
      expect(r.problem).toContain('hand host trust far --known-hosts');
      expect(r.problem).toContain('ssh-keygen -lf');
    }
    const table = await w.hand(['status']);
    expect(table.stdout).toMatch(/host key changed: far .*\(workers: w1, w2\)/);
    const page = await (await reviewSession(w.hand)).get('/w/w1');
    expect(page.text).toContain('host key changed');
    expect(page.text).toContain('hand host trust far');
  }, 90_000);

  it('send and keys are refused with the condition and its fix, never an internal error, and nothing reaches the pane', async () => {
    const before = farScreen('w1');
    const s = await w.hand(['send', 'w1', 'typed while the key is in question', '--json']);
    expect(s.code, s.stdout + s.stderr).toBe(1);
    expect(s.json.error.code).toBe('host-key-changed');
    expect(s.json.error.message).toContain('hand host trust far');
    expect(s.json.error.message).not.toMatch(/internal error|exit 255|@@@/);
    const k = await w.hand(['keys', 'w2', 'enter', '--json']);
    expect(k.code, k.stdout + k.stderr).toBe(1);
    expect(k.json.error.code).toBe('host-key-changed');
    expect(farScreen('w1')).toBe(before);
    expect(farScreen('w1')).not.toContain('typed while the key is in question');
  }, 60_000);

  it('hand host check says the key changed, the fingerprint offered, and the command that accepts it', async () => {
    const r = await w.hand(['host', 'check', 'far', '--json']);
    expect(r.code).toBe(1);
    const ssh = r.json.facts.find((f: { what: string }) => f.what === 'ssh');
    expect(ssh).toMatchObject({ answer: 'no' });
    expect(ssh.detail).toContain('host key changed');
    expect(ssh.detail).toContain(rotated.fingerprint);
    expect(ssh.fix).toContain('hand host trust far --known-hosts');
    expect(((await ok(['host', 'list'])) as Array<{ name: string; keyChanged?: string | null }>).find((h) => h.name === 'far')!.keyChanged).toContain('host key changed');
  }, 60_000);

  it('hand host trust with a file holding the new key brings every worker back, and a send goes through', async () => {
    const t = await ok(['host', 'trust', 'far', '--known-hosts', rotated.knownHostsFile]);
    expect(t).toMatchObject({ name: 'far', keys: 1, replaced: 1, wasChanged: true });
    const back = await waitFor(async () => {
      const r = await rows();
      return r.every((x) => x.condition === 'settled' && x.live === true && x.problem === null) ? r : undefined;
    }, { what: 'both far workers back and settled after the key was accepted', timeoutMs: 45_000 });
    expect(back.map((r) => r.id)).toEqual(['w1', 'w2']);
    await ok(['send', 'w2', 'After the key.']);
    await ok(['wait', 'w2', '--until', 'settled', '--timeout', '30s']);
    expect((await ok(['read', 'w2'])).text).toContain('After the key.');
    expect((await w.hand(['host', 'check', 'far', '--json'])).json.facts.find((f: { what: string }) => f.what === 'ssh').answer).toBe('yes');
  }, 90_000);
});
