/**
 * hand host add | list | check | remove against a real sshd and a second local account: a host
 * is a row with its facts; check answers ssh (batch mode, a host key that must already be
 * known), git, tmux, the agent and the remote state directory (made 0700), each yes / no /
 * could-not-tell with its fix; a host key is never accepted silently; bad values are refused
 * naming the value.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostFact } from '../../contract/methods.ts';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { startTestSshd, stopAfter, type TestSshd } from '../harness/sshd.ts';

describe('hand host', () => {
  let w: CliWorld;
  let sshd: TestSshd;
  const ok = async (args: string[]) => {
    const r = await w.hand([...args, '--json']);
    expect(r.code, `hand ${args.join(' ')}: ${r.stderr}${r.stdout}`).toBe(0);
    return r.json;
  };
  const fact = (facts: HostFact[], what: string) => facts.find((f) => f.what === what);

  beforeAll(async () => {
    sshd = await startTestSshd();
    w = await makeCliWorld('hosts');
  }, 60_000);
  afterAll(() => stopAfter(w, sshd));

  it('the default host is local, and it is always listed', async () => {
    const hosts = await ok(['host', 'list']);
    expect(hosts.map((h: { name: string }) => h.name)).toEqual(['local']);
  });

  it('a host whose key is not known is refused at check, and its key is never learnt', async () => {
    await ok(['host', 'add', 'stranger', `${sshd.user}@127.0.0.1`, '--port', String(sshd.port), '--identity', sshd.identityFile]);
    const r = await w.hand(['host', 'check', 'stranger', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.ok).toBe(false);
    expect(fact(r.json.facts, 'ssh')).toMatchObject({ answer: 'no' });
    expect(fact(r.json.facts, 'ssh')!.fix).toMatch(/host key .* is not known/);
    // Nothing past ssh is claimed either way.
    for (const what of ['git', 'tmux', 'agent', 'state-dir']) expect(fact(r.json.facts, what)).toMatchObject({ answer: 'could-not-tell' });
    const known = join(w.home, 'ssh', 'known_hosts');
    expect(existsSync(known) ? readFileSync(known, 'utf8') : '').toBe('');
    await ok(['host', 'remove', 'stranger']);
  });

  it('check says yes or no for ssh, git, tmux, each agent CLI and the state directory, made 0700 on the far side', async () => {
    const added = await ok(['host', 'add', 'far', `${sshd.user}@127.0.0.1`, '--port', String(sshd.port), '--identity', sshd.identityFile, '--known-hosts', sshd.knownHostsFile]);
    expect(added).toMatchObject({ name: 'far', user: sshd.user, address: '127.0.0.1', port: sshd.port, checkedAt: null });
    const r = await w.hand(['host', 'check', 'far', '--json']);
    const facts = r.json.facts;
    expect(fact(facts, 'ssh')).toMatchObject({ answer: 'yes' });
    expect(fact(facts, 'git')).toMatchObject({ answer: 'yes', detail: expect.stringMatching(/^git version \d/) });
    expect(fact(facts, 'tmux')).toMatchObject({ answer: 'yes', detail: expect.stringMatching(/^tmux \d/) });
    // No agent CLI on the PATH a far worker starts with: one "no" per CLI, each with its fix,
    // and a host without any agent is not ready.
    const agents = facts.filter((f: HostFact) => f.what === 'agent');
    expect(agents.map((f: HostFact) => [f.agent, f.answer])).toEqual([['claude', 'no'], ['codex', 'no'], ['gemini', 'no'], ['opencode', 'no'], ['qwen', 'no']]);
    expect(agents.map((f: HostFact) => f.detail)).toEqual(['claude', 'codex', 'gemini', 'opencode', 'qwen'].map((p) => `${p} is not on ${sshd.home}/.local/bin:/usr/local/bin:/usr/bin:/bin`));
    expect(agents.map((f: HostFact) => f.fix)).toEqual([
      expect.stringMatching(/^npm install -g @anthropic-ai\/claude-code@2\.1\.332 — on /),
      expect.stringMatching(/^npm install -g @openai\/codex@0\.169\.0 — on /),
      expect.stringMatching(/^npm install -g @google\/gemini-cli@0\.61\.0 — on /),
      expect.stringMatching(/^npm install -g opencode-ai@1\.18\.33 — on /),
      expect.stringMatching(/^npm install -g @qwen-code\/qwen-code@0\.15\.10 — on /),
    ]);
    expect(r.json.ok).toBe(false);
    expect(r.code).toBe(1);
    const stateDir = join(sshd.home, '.kingshand');
    expect(fact(facts, 'state-dir')).toMatchObject({ answer: 'yes', detail: `${stateDir} (0700)` });
    const st = statSync(stateDir);
    expect([st.uid, st.mode & 0o777]).toEqual([sshd.uid, 0o700]);
    // The facts stay with the host.
    const listed = (await ok(['host', 'list'])).find((h: { name: string }) => h.name === 'far');
    expect(listed).toMatchObject({ stateDir, facts });
    expect(listed.checkedAt).not.toBeNull();
    // The text face says the fix too.
    const text = await w.hand(['host', 'check', 'far']);
    expect(text.stdout).toMatch(/agent codex: no — codex is not on .*\n\s+fix: npm install -g @openai\/codex@0\.169\.0/);
  });

  it('bad values are refused naming the value and the way out', async () => {
    const refused = async (args: string[], message: RegExp) => {
      const r = await w.hand(args);
      expect(r.code, r.stdout).not.toBe(0);
      expect(r.stderr).toMatch(message);
    };
    await refused(['host', 'add', 'Bad_Name', 'a@b'], /host name "Bad_Name" must be/);
    await refused(['host', 'add', 'box', 'no-at-sign'], /"no-at-sign" is not user@address/);
    await refused(['host', 'add', 'box', 'a@-oProxyCommand=x'], /is not user@address/);
    await refused(['host', 'add', 'box', 'a@b', '--port', '70000'], /--port .*70000.* is not a port/);
    await refused(['host', 'add', 'local', 'a@b'], /local already exists/);
    await refused(['host', 'add', 'far', 'a@b'], /far already exists/);
    await refused(['host', 'check', 'nosuch'], /no host named "nosuch"/);
    await refused(['host', 'add', 'box', 'a@127.0.0.1', '--known-hosts', sshd.identityFile + '.pub'], /no plain entry for 127\.0\.0\.1/);
  });

  it('remove takes the host out of the list and closes its connection', async () => {
    const masters = () => readdirSync(join(w.home, 'ssh')).filter((n) => n.startsWith('cm-'));
    expect(masters()).toHaveLength(1); // the check's one multiplexed connection, still up
    const removed = await ok(['host', 'remove', 'far']);
    expect(masters()).toEqual([]);
    expect(removed).toMatchObject({ name: 'far', removed: true });
    expect((await ok(['host', 'list'])).map((h: { name: string }) => h.name)).toEqual(['local']);
  });
});
