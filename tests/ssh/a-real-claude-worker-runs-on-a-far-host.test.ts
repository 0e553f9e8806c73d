/**
 * Real agent CLIs as far workers: each runs as the far account (its own HOME, its own tmux), and
 * reaches its fake model API only through an ssh reverse forward on the far side's loopback
 * (`ssh -R`), as a model API would be reached from a build box. Through `hand`:
 * - Claude Code: dispatch → its Bash permission dialog (blocked) → one key → settled → report
 *   read back → landed local-only into the far checkout;
 * - Codex CLI: `hand host check` lists it with its version there; dispatch seeds its folder trust
 *   into the far account's config.toml (every other byte kept, 0600, its symlink written through) — the checkout has project
 *   settings, so an unseeded Codex would stop on "Trust this folder?" — → its escalated command
 *   asks (blocked, the question quoted) → one key → settled → report read back; an agent the far
 *   host lacks (Gemini CLI here) is refused naming the host, the agent and the fix.
 * - Gemini CLI: dispatch seeds its workspace settings, deny policy and folder trust there (the far
 *   person's own trust entries kept) → its report write asks → answered → settled → report read back.
 * One world (sshd, far account, daemon, forwards) for all three: a second world would cost
 * seconds. The Codex and Gemini workers are not stopped here (stop's /exit is tested locally);
 * the far account's processes end with the account at cleanup.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { CLAUDE_BIN } from '../harness/claude-binary.ts';
import { claudeTestEnv, seedClaudeHome } from '../harness/claude-env.ts';
import { FAKE_OPENAI_KEY, FAKE_OPENAI_KEY_ENV, codexProviderToml } from '../harness/codex-env.ts';
import { startFakeCodexApi, writeFileCommand, type FakeCodexApi } from '../../io/fake-model/codex.ts';
import { pinnedCodex } from '../agents/codex/real-codex.ts';
import { startFakeGemini, type FakeGemini } from '../../io/fake-model/gemini.ts';
import { geminiBinaryFor } from '../harness/real-gemini.ts';
import { execFileSync } from 'node:child_process';
import { startFakeAnthropic, type FakeAnthropic } from '../../io/fake-model/anthropic.ts';
import { addFarHost, farGit, startFarShop, type FarShop } from '../harness/far-shop.ts';
import { sshOptions } from '../../io/ssh/ssh-command.ts';
import { makeTempDir, waitFor } from '../helpers/temp.ts';
import { waitStable, type WaitForScreen } from '../helpers/screen-stable.ts';
import { unquoteScreen } from '../../contract/worker-words.ts';

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

describe('real agent CLIs as workers on a far host', () => {
  let far: FarShop;
  let w: CliWorld;
  let fake: FakeAnthropic;
  let codexFake: FakeCodexApi;
  let codexPort = 0;
  let geminiFake: FakeGemini;
  let geminiPort = 0;
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
    codexFake = await startFakeCodexApi();
    geminiFake = await startFakeGemini();
    const { sshd } = far;
    // Claude Code on the far account's PATH; its HOME seeded as a person would have it (onboarding
    // done, manual permissions so Bash asks); the folder trust is kingshand's seed.
    const bin = join(sshd.home, '.local', 'bin', 'claude');
    writeFileSync(bin, `#!/bin/sh\nexec '${realpathSync(CLAUDE_BIN)}' "$@"\n`, { mode: 0o755 });
    seedClaudeHome({ home: sshd.home, worktrees: [], manualPermissions: true, renderer: 'fullscreen' });
    for (const p of [bin, '.claude.json', '.claude', '.claude/settings.json', '.cctmp', '.ccrun']) chownSync(p.startsWith('/') ? p : join(sshd.home, p), sshd.uid, sshd.gid);
    // The pinned Codex CLI on the far PATH too, and the far account's own config.toml naming the
    // fake (through its forward) as a person's would; folder trust is left to kingshand's seed.
    [farPort, codexPort, geminiPort] = [await freePort(), await freePort(), await freePort()];
    writeFileSync(join(sshd.home, '.local', 'bin', 'codex'), `#!/bin/sh\nexec '${realpathSync(pinnedCodex())}' "$@"\n`, { mode: 0o755 });
    // Kept by a dotfile manager: ~/.codex/config.toml is a link, which the seed writes through.
    mkdirSync(join(sshd.home, '.codex'), { mode: 0o700 });
    mkdirSync(join(sshd.home, 'dotfiles'));
    writeFileSync(join(sshd.home, 'dotfiles', 'codex.toml'), `# the far person's own\n${codexProviderToml(`http://127.0.0.1:${codexPort}`)}`, { mode: 0o644 });
    symlinkSync(join(sshd.home, 'dotfiles', 'codex.toml'), join(sshd.home, '.codex', 'config.toml'));
    // Project settings in the checkout: Codex asks "Trust this folder?" for it unless trusted.
    mkdirSync(join(far.repo, '.codex'));
    writeFileSync(join(far.repo, '.codex', 'config.toml'), 'model_reasoning_effort = "low"\n');
    farGit(far.repo, 'add', '.codex');
    farGit(far.repo, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'Codex project settings');
    execFileSync('chown', ['-R', `${sshd.uid}:${sshd.gid}`, join(sshd.home, '.local'), join(sshd.home, '.codex'), join(sshd.home, 'dotfiles'), join(sshd.home, 'src')]);
    // The reverse forwards: the far loopback's ports → the fakes on ours, over the far account's ssh.
    const target = sshd.target(local.path);
    const forwards = [[farPort, fake.port], [codexPort, codexFake.port], [geminiPort, geminiFake.port]].flatMap(([there, here]) => ['-R', `127.0.0.1:${there}:127.0.0.1:${here}`]);
    forward = spawn('ssh', [...sshOptions({ ...target, controlPath: 'none' }), '-N', '-o', 'ExitOnForwardFailure=yes', ...forwards, target.address], { stdio: 'ignore', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
    for (const port of [farPort, codexPort, geminiPort]) await waitFor(() => answers(port), { what: `the reverse forward on the far side's 127.0.0.1:${port}`, timeoutMs: 15_000 });
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
      await codexFake?.close();
      await geminiFake?.close();
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
        // The screen's own lines, out of the quote hand read gives them in (issue 37).
        const text = unquoteScreen((await ok(['read', 'w1'])).text as string);
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
    const report = join(far.workerDir('w1'), 'out', 'report.md');
    await ok(['send', 'w1', `MODE:report ${report}`]);
    // Posture ask: the report's Write waits for a person too.
    await approve('the Write permission dialog');
    await waitFor(async () => (await ok(['status', 'w1']))[0].reportExists === true, { what: 'the far report read back', timeoutMs: 60_000 });
    expect(readFileSync(d.reportPath, 'utf8')).toBe(readFileSync(report, 'utf8'));
    const landed = await ok(['land', 'w1'], undefined, 90_000);
    expect(landed).toMatchObject({ stage: 'landed', landed: { target: 'main' }, teardown: { done: true } });
    expect(farGit(far.repo, 'log', '--format=%s', 'main')).toContain('Add the feature file');
  }, 120_000);

  it('hand host check lists each agent CLI there with its version; one the host lacks is refused at dispatch, naming the host, the agent and the fix', async () => {
    const r = await w.hand(['host', 'check', 'far', '--json']);
    const agents = Object.fromEntries(r.json.facts.filter((f: { what: string }) => f.what === 'agent').map((f: { agent: string }) => [f.agent, f]));
    expect(agents.claude).toMatchObject({ answer: 'yes', version: '2.1.332' });
    expect(agents.codex).toMatchObject({ answer: 'yes', version: '0.169.0', detail: expect.stringContaining(`${far.sshd.home}/.local/bin/codex`) });
    expect(agents.gemini).toMatchObject({ answer: 'no', fix: expect.stringContaining('@google/gemini-cli@') });
    // Agents missing is not "not ready" while one is there.
    expect(r.json.ok).toBe(true);
    const refused = await w.hand(['dispatch', 'g1', '--repo', w.repo, '--brief', w.brief('g1', 'anything'), '--agent', 'gemini', '--json']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/host far has no Gemini CLI .*nothing was created\. Install it there: npm install -g @google\/gemini-cli@/);
    expect(existsSync(join(far.repo, '.claude', 'worktrees', 'g1')) || existsSync(far.workerDir('g1'))).toBe(false);
  }, 60_000);

  // Codex and Gemini CLI run at once (their own fake APIs, workers and files): one after the other
  // they were about fifteen seconds of a suite near its budget.
  it.concurrent('Codex CLI is seeded there (trust in the far config.toml, every other byte kept), asks for its command, is answered with a key and reports', async () => {
    const config = join(far.sshd.home, 'dotfiles', 'codex.toml');
    const before = readFileSync(config, 'utf8');
    const report = join(far.workerDir('cx1'), 'out', 'report.md');
    const question = 'May I commit codex.txt and write the report?';
    const work = ['echo codex > codex.txt', 'git add codex.txt', 'git -c user.name=w -c user.email=w@example.invalid commit -q -m "Add the codex file"', writeFileCommand(report, '# Report\n\nStatus: done on the far host.')].join(' && ');
    codexFake.queue([{ kind: 'shell', cmd: work, escalate: question, text: 'I will commit and report.' }]);
    const d = await ok(['dispatch', 'cx1', '--repo', w.repo, '--brief', w.brief('cx1', 'Commit the codex file and report.'), '--agent', 'codex', '--env', `${FAKE_OPENAI_KEY_ENV}=${FAKE_OPENAI_KEY}`]);
    expect(d).toMatchObject({ host: 'far', agent: 'codex', seeded: null });
    const blocked = await ok(['wait', 'cx1', '--until', 'blocked', '--timeout', '60s']);
    // Its own question, not "Trust this folder?": the far seed made the checkout trusted.
    expect(JSON.stringify(blocked)).toContain(question);
    // Its version was read there, so its screen is read with that version's profile.
    expect((await ok(['status', 'cx1']))[0]).toMatchObject({ host: 'far', agent: 'codex', agentVersion: '0.169.0', state: 'blocked' });
    const after = readFileSync(config, 'utf8');
    // The person's bytes, then the trust entry (Codex adds its own tui notes after it once running).
    const trust = `\n[projects.${JSON.stringify(realpathSync(join(far.repo, '.claude', 'worktrees', 'cx1')))}]\ntrust_level = "trusted"\n`;
    expect(after.startsWith(`${before}${trust}`), after).toBe(true);
    expect([statSync(config).uid, statSync(config).mode & 0o777]).toEqual([far.sshd.uid, 0o600]);
    expect(lstatSync(join(far.sshd.home, '.codex', 'config.toml')).isSymbolicLink(), 'the link is kept').toBe(true);
    // No Claude Code files for a Codex worker.
    expect(existsSync(join(far.repo, '.claude', 'worktrees', 'cx1', '.claude', 'settings.local.json'))).toBe(false);
    await ok(['keys', 'cx1', 'y']);
    await ok(['wait', 'cx1', '--until', 'settled', '--timeout', '60s']);
    expect(codexFake.turns().length).toBeGreaterThan(0);
    expect(farGit(far.repo, 'log', '--format=%s', 'worktree-cx1')).toContain('Add the codex file');
    await waitFor(async () => (await ok(['status', 'cx1']))[0].reportExists === true, { what: 'the far Codex report read back', timeoutMs: 30_000 });
    expect(readFileSync(d.reportPath, 'utf8')).toContain('Status: done on the far host.');
  }, 90_000);

  it.concurrent('Gemini CLI is seeded there (settings, deny policy, trust kept with the far person\'s own entries), asks for its write, is answered and reports', async () => {
    const { sshd } = far;
    // Installed only now (dispatch asks the host itself, not the last check's facts), linked as
    // an npm install links it, so its version is read from its package.json there.
    symlinkSync(realpathSync(geminiBinaryFor()), join(sshd.home, '.local', 'bin', 'gemini'));
    // The far person's own trust file, with an entry of theirs that must stay.
    const trustFile = join(sshd.home, '.gemini', 'trustedFolders.json');
    mkdirSync(join(sshd.home, '.gemini'));
    writeFileSync(trustFile, '{\n  "/srv/theirs": "TRUST_FOLDER"\n}\n', { mode: 0o644 });
    execFileSync('chown', ['-R', `${sshd.uid}:${sshd.gid}`, join(sshd.home, '.gemini')]);
    const farDir = far.workerDir('gm1');
    const report = join(farDir, 'out', 'report.md');
    const text = '# Report\n\nStatus: done by Gemini CLI on the far host.\n';
    geminiFake.queue([{ kind: 'call', name: 'write_file', text: 'I will write the report.', args: { file_path: report, content: text } }, { kind: 'text', text: 'Done.' }]);
    const env = { ...w.env, GEMINI_API_KEY: 'fake-gemini-key', GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${geminiPort}`, GEMINI_CLI_NO_RELAUNCH: 'true' };
    const d = await ok(['dispatch', 'gm1', '--repo', w.repo, '--brief', w.brief('gm1', 'Write your report.'), '--agent', 'gemini'], env);
    expect(d).toMatchObject({ host: 'far', agent: 'gemini', seeded: null });
    // Its write asks under ask, outside the worktree too: the far brief directory is in its workspace.
    const blocked = await ok(['wait', 'gm1', '--until', 'blocked', '--timeout', '60s']);
    expect(blocked).toMatchObject({ blockedReason: 'permission' });
    expect(blocked.dialog.options[0].label).toBe('worker gm1 wrote: "Allow once"'); // the worker's words, quoted (issue 37)
    const worktree = realpathSync(join(far.repo, '.claude', 'worktrees', 'gm1'));
    expect(JSON.parse(readFileSync(trustFile, 'utf8'))).toEqual({ '/srv/theirs': 'TRUST_FOLDER', [worktree]: 'TRUST_FOLDER', [realpathSync(farDir)]: 'TRUST_FOLDER' });
    expect([statSync(trustFile).uid, statSync(trustFile).mode & 0o777]).toEqual([sshd.uid, 0o600]);
    const settings = JSON.parse(readFileSync(join(worktree, '.gemini', 'settings.json'), 'utf8'));
    const policy = join(farDir, 'gemini-deny-policy.toml');
    expect(settings).toMatchObject({ security: { auth: { selectedType: 'gemini-api-key' } }, context: { includeDirectories: [farDir] }, policyPaths: [policy], telemetry: { enabled: false } });
    // No witness hooks there: `hand hook` could not reach this daemon from the far host.
    expect(settings.hooks).toBeUndefined();
    // The deny list names the far account's secrets (the path as a regex in the policy file).
    expect(readFileSync(policy, 'utf8')).toContain(`${sshd.home}/\\\\.ssh/`);
    expect(farGit(worktree, 'status', '--porcelain')).toBe('');
    const answered = await ok(['answer', 'gm1', '1', '--fingerprint', blocked.dialog.fingerprint]);
    expect(answered).toBeTruthy();
    await ok(['wait', 'gm1', '--until', 'settled', '--timeout', '60s']);
    await waitFor(async () => (await ok(['status', 'gm1']))[0].reportExists === true, { what: 'the far Gemini CLI report read back', timeoutMs: 30_000 });
    expect(readFileSync(d.reportPath, 'utf8')).toBe(text);
    expect((await ok(['status', 'gm1']))[0]).toMatchObject({ agentVersion: '0.61.0' });
  }, 90_000);
});
