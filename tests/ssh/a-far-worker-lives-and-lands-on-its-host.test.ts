/**
 * `hand dispatch --host` against a real sshd and a second local account as the far side: the
 * project's checkout is registered on that host, and everything of the worker lives there — the
 * worktree and branch (git run there), the brief (copied over ssh's stdin), the pane (that
 * account's own tmux), the commit. The report is read back into the daemon's copy; landing
 * (local-only) fast-forwards the far checkout's base and removes the far worktree.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { closeServer, handOk, listenWebhook, serverPort, type HandOk } from '../helpers/cli-world.ts';
import { waitFor } from '../helpers/temp.ts';
import type { Server } from 'node:http';
import type { TestSshd } from '../harness/sshd.ts';
import { addFarHost, farGit, startFarShop } from '../harness/far-shop.ts';
import { makeTestRepo } from '../helpers/git-repo.ts';
import { FAR_NODE } from '../harness/far-side-tmux.ts';
import { binDir } from '../helpers/bin-dir.ts';

const GH_DOUBLE = resolve(import.meta.dirname, '../doubles/gh/gh');
const NM_DOUBLE = resolve(import.meta.dirname, '../doubles/no-mistakes/no-mistakes');

/** $1 = a file to add, $2 = the commit's subject: a worker's commit. */
const COMMIT = 'echo "$2" > "$1" && git add -- "$1" && git -c user.name=t -c user.email=t@example.invalid commit -q -m "$2"';

/** A command as the far account (its own uid, its HOME) in `cwd`. */
function asFar(sshd: TestSshd, cwd: string, ...argv: string[]): string {
  return execFileSync('runuser', ['-u', sshd.user, '--', 'env', `HOME=${sshd.home}`, 'PATH=/usr/local/bin:/usr/bin:/bin', 'sh', '-c', 'cd "$1" && shift && exec "$@"', 'sh', cwd, ...argv], { encoding: 'utf8' });
}

/**
 * The no-mistakes double as the far account's own gate (~/.local/bin/no-mistakes, its TOON
 * library beside it): its runs and its call log in that account's HOME, delivering (push and PR)
 * when a run does not skip push.
 */
function installFarGate(sshd: TestSshd): { bin: string; state: string; log: string } {
  const dir = join(sshd.home, 'kh-nm');
  cpSync(NM_DOUBLE, join(dir, 'no-mistakes.mjs'));
  cpSync(resolve(import.meta.dirname, '../../node_modules/@toon-format/toon'), join(dir, 'node_modules', '@toon-format', 'toon'), { recursive: true, dereference: true });
  const state = join(sshd.home, 'nm-state.json');
  const log = join(sshd.home, 'nm-calls.log');
  const bin = join(sshd.home, '.local', 'bin', 'no-mistakes');
  writeFileSync(bin, `#!/bin/sh\nNO_MISTAKES_DOUBLE_STATE='${state}' NO_MISTAKES_DOUBLE_LOG='${log}' NO_MISTAKES_DOUBLE_DELIVERS=1 exec ${FAR_NODE} '${join(dir, 'no-mistakes.mjs')}' "$@"\n`, { mode: 0o755 });
  execFileSync('chown', ['-R', `${sshd.uid}:${sshd.gid}`, dir, bin]);
  return { bin, state, log };
}

/**
 * The gh double as the far account's own gh (~/.local/bin/gh): each call's argv logged and its
 * environment kept, both written by that account, so a test sees where and as whom gh ran.
 */
function installFarGh(sshd: TestSshd): { log: string; env: string } {
  const dir = join(sshd.home, 'kh-gh');
  mkdirSync(dir, { recursive: true });
  cpSync(GH_DOUBLE, join(dir, 'gh.mjs'));
  const log = join(sshd.home, 'gh-calls.log');
  const env = join(sshd.home, 'gh-env.txt');
  const bin = join(sshd.home, '.local', 'bin', 'gh');
  writeFileSync(bin, `#!/bin/sh\nenv > '${env}'\nGH_DOUBLE_LOG='${log}' exec ${FAR_NODE} '${join(dir, 'gh.mjs')}' "$@"\n`, { mode: 0o755 });
  for (const p of [dir, join(dir, 'gh.mjs'), bin]) chownSync(p, sshd.uid, sshd.gid);
  return { log, env };
}

describe('a worker on another host', () => {
  let sshd: TestSshd;
  let w: CliWorld;
  let ok: HandOk;
  let farRepo: string;
  let webhook: Server;
  const hits: { worker?: string; host?: string; condition?: string; reason?: string }[] = [];

  beforeAll(async () => {
    const far = await startFarShop();
    ({ sshd, repo: farRepo } = far);
    w = await makeCliWorld('far-worker');
    ok = handOk(w);
    await addFarHost(w, far);
    // Posture edits: kingshand's sandbox is built on this machine only, so a far worker under off is refused (below).
    await ok(['annex', w.repo, '--name', 'shop', '--yolo', '--permissions', 'edits']);
    webhook = await listenWebhook(hits);
    await ok(['notify', 'add', 'webhook', `http://127.0.0.1:${serverPort(webhook)}/hook`, '--allow-loopback']);
  }, 60_000);
  afterAll(async () => {
    try {
      if (webhook) await closeServer(webhook);
      await w?.cleanup();
    } finally {
      await sshd?.stop();
    }
  });

  it('a project is placed on a host only where git there says its checkout is', async () => {
    const r = await w.hand(['project', 'host', 'shop', 'far', join(sshd.home, 'nowhere'), '--json']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/not a git work tree on the far host/);
    const placed = await ok(['project', 'host', 'shop', 'far', farRepo, '--default']);
    expect(placed).toEqual({ name: 'shop', hosts: [{ host: 'far', path: farRepo, default: true }] });
  });

  it("posture off is refused for a far worker before anything is made there: kingshand's sandbox is built on this machine only", async () => {
    await ok(['project', 'set', 'shop', '--permissions', 'off']);
    try {
      const r = await w.hand(['dispatch', 'w0', '--repo', w.repo, '--brief', w.brief('w0', 'Say hi.'), '--agent', 'mock', '--json']);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.json.error.code).toBe('sandbox-unavailable');
      expect(r.json.error.message).toMatch(/this worker would run on another host.*--permissions edits/s);
      expect(farGit(farRepo, 'worktree', 'list')).not.toContain('w0');
    } finally {
      await ok(['project', 'set', 'shop', '--permissions', 'edits']);
    }
  });

  it('dispatched to its host: blocked, answered by a key, settled, reported, landed there and stopped', async () => {
    const mainBefore = farGit(farRepo, 'rev-parse', 'main').trim();
    // The worker also tries to make its commit the base itself: the guard there refuses it.
    const task = 'MODE:bash[[echo feature > feature.txt && git add feature.txt && git commit -q -m "Add the feature file" && (git update-ref refs/heads/main HEAD || true)]]';
    // No --host: the project's default host is used.
    const run = await w.hand(['dispatch', 'w1', '--repo', w.repo, '--brief', w.brief('w1', task), '--agent', 'mock', '--json'], { env: { KH_MOCK_RUN_BASH: '1' } });
    expect(run.code, run.stderr).toBe(0);
    const d = run.json;
    const farDir = join(sshd.home, '.kingshand', 'workers', 'w1');
    expect(d).toMatchObject({ id: 'w1', host: 'far', repo: farRepo, worktree: join(farRepo, '.claude', 'worktrees', 'w1'), branch: 'worktree-w1', base: 'main' });
    // The brief was copied there, the far account's own and private.
    const brief = statSync(join(farDir, 'brief.md'));
    expect([brief.uid, brief.mode & 0o777]).toEqual([sshd.uid, 0o600]);
    expect(readFileSync(join(farDir, 'brief.md'), 'utf8')).toContain('MODE:bash');
    expect(farGit(farRepo, 'worktree', 'list')).toContain(join(farRepo, '.claude', 'worktrees', 'w1'));

    const blocked = await ok(['wait', 'w1', '--until', 'blocked', '--timeout', '20s']);
    expect(blocked).toMatchObject({ reason: 'blocked', blockedReason: 'permission' });
    expect((await ok(['status', 'w1']))[0]).toMatchObject({ id: 'w1', host: 'far', live: true });
    // The host in every face: the status table, the digest, the notification.
    const text = await w.hand(['status']);
    expect(text.stdout).toMatch(/\bHOST\b[\s\S]*\bw1\b.*\bfar\b/);
    const digest = await w.hand(['digest', '--json']);
    expect(digest.json.fleet.workers).toEqual([expect.objectContaining({ id: 'w1', host: 'far' })]);
    expect((await w.hand(['digest'])).stdout).toContain('w1@far');
    const pushed = await waitFor(() => hits.find((h) => h.condition === 'blocked'), { what: 'the blocked notification of w1', timeoutMs: 15_000 });
    expect(pushed).toMatchObject({ worker: 'w1', host: 'far', reason: expect.stringContaining('w1 on far is blocked') });
    await ok(['keys', 'w1', 'enter']);
    await ok(['wait', 'w1', '--until', 'settled', '--timeout', '20s']);
    expect(farGit(farRepo, 'log', '--format=%s', 'worktree-w1')).toContain('Add the feature file');
    // The base guard is in the far repository's hooks, the far account's own, and held.
    const hook = statSync(join(farRepo, '.git', 'hooks', 'reference-transaction'));
    expect([hook.uid, hook.mode & 0o777]).toEqual([sshd.uid, 0o755]);
    expect(farGit(farRepo, 'rev-parse', 'main').trim()).toBe(mainBefore);

    await ok(['send', 'w1', `MODE:report ${join(farDir, 'out', 'report.md')}`]);
    await ok(['wait', 'w1', '--until', 'settled', '--timeout', '20s']);
    // Read back into the daemon's copy, which every reader here uses.
    expect((await ok(['status', 'w1']))[0]).toMatchObject({ reportExists: true });
    expect(readFileSync(d.reportPath, 'utf8')).toBe(readFileSync(join(farDir, 'out', 'report.md'), 'utf8'));

    // A move of the far base outside a landing is seen against the tip recorded there at dispatch.
    farGit(farRepo, 'update-ref', 'refs/heads/main', 'worktree-w1');
    const moved = await w.hand(['land', 'w1', '--json']);
    expect(moved.json.error).toMatchObject({ code: 'base-moved-outside-a-landing', message: expect.stringContaining(`update-ref refs/heads/main ${mainBefore}`) });
    farGit(farRepo, 'update-ref', 'refs/heads/main', mainBefore);
    execFileSync('chown', ['-R', `${sshd.uid}:${sshd.gid}`, join(farRepo, '.git')]);
    // The person's --accept-base records the tip on the host the workers ran on.
    expect((await ok(['project', 'set', 'shop', '--accept-base'])).acceptedBase).toEqual([{ branch: 'main', host: 'far', from: null, to: mainBefore }]);
    const landed = await ok(['land', 'w1'], 60_000);
    expect(landed).toMatchObject({ gate: 'skipped-yolo', stage: 'landed', landed: { target: 'main', via: 'merge --ff-only' }, teardown: { done: true } });
    expect(farGit(farRepo, 'log', '--format=%s', 'main')).toContain('Add the feature file');
    expect(existsSync(join(farRepo, '.claude', 'worktrees', 'w1'))).toBe(false);
    // The agent left by /exit and its pane is gone from the far account's tmux.
    const panes = execFileSync('ps', ['-u', sshd.user, '-o', 'args='], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    expect(panes).not.toContain('kh-mock');
  }, 60_000);

  it('a stopped far worker is discarded on its host: its worktree and branch go there', async () => {
    await ok(['dispatch', 'w2', '--repo', w.repo, '--brief', w.brief('w2', 'Say hello.'), '--agent', 'mock']);
    await ok(['wait', 'w2', '--until', 'settled', '--timeout', '20s']);
    await ok(['stop', 'w2']);
    const worktree = join(farRepo, '.claude', 'worktrees', 'w2');
    expect(existsSync(worktree)).toBe(true);
    expect(await ok(['discard', 'w2', '--delete-branch'])).toMatchObject({ id: 'w2', worktree: 'removed', branch: 'deleted' });
    expect(existsSync(worktree)).toBe(false);
    expect(farGit(farRepo, 'branch', '--list', 'worktree-w2').trim()).toBe('');
  }, 40_000);

  it('a far worker relaunched stays on its host: its report goes aside there and it reads its progress note there', async () => {
    const farDir = join(sshd.home, '.kingshand', 'workers', 'w3');
    await ok(['dispatch', 'w3', '--repo', w.repo, '--brief', w.brief('w3', 'Say hello.'), '--agent', 'mock']);
    await ok(['wait', 'w3', '--until', 'settled', '--timeout', '20s']);
    await ok(['send', 'w3', `MODE:report ${join(farDir, 'out', 'report.md')}`]);
    await waitFor(async () => (await ok(['status', 'w3']))[0].reportExists === true, { what: 'the far report of w3 read back' });
    const r = await ok(['relaunch', 'w3', '--force']);
    expect(r.firstPrompt).toContain(`progress note at ${join(farDir, 'progress-note.md')}`);
    expect(r.firstPrompt).toContain(`Read the brief at ${join(farDir, 'brief.md')}`);
    expect(existsSync(join(farDir, 'out', 'report.md'))).toBe(false);
    expect(existsSync(join(farDir, 'out', 'report-before-relaunch-1.md'))).toBe(true);
    await ok(['wait', 'w3', '--until', 'settled', '--timeout', '20s']);
    expect((await ok(['status', 'w3']))[0]).toMatchObject({ host: 'far', live: true, reportExists: false });
    expect(readFileSync(join(farDir, 'progress-note.md'), 'utf8')).toContain('report');
  }, 40_000);

  it('a far worker held at the brief gate: the approval answers with what now exists on its host', async () => {
    await ok(['annex', w.repo, '--name', 'shop', '--permissions', 'edits']); // yolo off: dispatch waits for the brief's approval
    const d = await ok(['dispatch', 'w4', '--repo', w.repo, '--brief', w.brief('w4', 'Say hello.'), '--agent', 'mock']);
    expect(d).toMatchObject({ gated: true, host: 'far', created: { worktree: false } });
    const approved = await ok(['approve', 'w4']);
    expect(approved).toMatchObject({ gate: 'brief-approved', created: { worktree: join(farRepo, '.claude', 'worktrees', 'w4'), branch: 'worktree-w4', pane: expect.stringMatching(/ on far$/) } });
    await ok(['stop', 'w4']);
  }, 40_000);

  it('a host with workers is not removed: they would be left unreachable', async () => {
    const r = await w.hand(['host', 'remove', 'far', '--json']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/host far still has workers \(w1, w3, w4\); nothing was removed\. Stop and discard them first/);
    expect((await ok(['host', 'list'])).map((h: { name: string }) => h.name)).toEqual(['local', 'far']);
  });

  describe('push postures from the far host', () => {
    let origin: string;
    let gatesRepo: string;
    let farGates: string;
    let gatesOrigin: string;
    beforeAll(async () => {
      // The far checkout's origin: a bare repository the far account owns, on the far side.
      origin = join(sshd.home, 'src', 'shop-origin.git');
      execFileSync('git', ['init', '-q', '--bare', '-b', 'main', origin]);
      farGit(farRepo, 'remote', 'add', 'origin', origin);
      farGit(farRepo, 'push', '-q', 'origin', 'main');
      // Declared there only: the far checkout's .no-mistakes.yaml names its integration branch.
      farGit(farRepo, 'branch', 'trunk', 'main');
      writeFileSync(join(farRepo, '.no-mistakes.yaml'), 'pr:\n  base_branch: trunk\n');
      // A second project, behind the no-mistakes gate, with its own far checkout and origin.
      farGates = join(sshd.home, 'src', 'gates');
      gatesOrigin = join(sshd.home, 'src', 'gates-origin.git');
      makeTestRepo(farGates, '# gates, on the far host\n');
      execFileSync('git', ['init', '-q', '--bare', '-b', 'main', gatesOrigin]);
      farGit(farGates, 'remote', 'add', 'origin', gatesOrigin);
      execFileSync('chown', ['-R', `${sshd.uid}:${sshd.gid}`, origin, farRepo, farGates, gatesOrigin]);
      // Registered here: this machine's checks for a push posture (an origin, gh logged in, the gate) pass with the doubles.
      gatesRepo = join(w.root, 'gates');
      makeTestRepo(gatesRepo, '# gates\n');
      for (const repo of [w.repo, gatesRepo]) execFileSync('git', ['-C', repo, 'remote', 'add', 'origin', 'https://github.com/acme/shop.git']);
      const here = { PATH: `${binDir(w.root, 'bin-push', { gh: GH_DOUBLE, 'no-mistakes': NM_DOUBLE })}:${process.env.PATH}`, GH_TOKEN: 'our-token' };
      for (const args of [['annex', w.repo, '--name', 'shop', '--posture', 'direct-PR', '--permissions', 'edits'], ['annex', gatesRepo, '--name', 'gates', '--posture', 'no-mistakes', '--permissions', 'edits'], ['project', 'host', 'gates', 'far', farGates]]) {
        const r = await w.hand([...args, '--json'], { env: here });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      }
    });

    it('refused at dispatch while the far account has no gh, and host check says so; nothing is made there', async () => {
      const checked = await w.hand(['host', 'check', 'far', '--json']);
      const fact = (what: string) => checked.json.facts.find((f: { what: string }) => f.what === what);
      expect(fact('gh')).toMatchObject({ answer: 'no', for: 'direct-PR and no-mistakes projects', fix: expect.stringMatching(/install the GitHub CLI on the host/) });
      expect(fact('no-mistakes')).toMatchObject({ answer: 'no', for: 'no-mistakes projects' });
      const r = await w.hand(['dispatch', 'w5', '--repo', w.repo, '--brief', w.brief('w5', 'Say hello.'), '--agent', 'mock', '--json']);
      expect(r.code).not.toBe(0);
      expect(r.json.error).toMatchObject({ code: 'far-gh-missing', message: expect.stringMatching(/gh \(the GitHub CLI\) is not installed on far .*nothing was made/) });
      expect(existsSync(join(farRepo, '.claude', 'worktrees', 'w5'))).toBe(false);
      expect(farGit(farRepo, 'branch', '--list', 'worktree-w5').trim()).toBe('');
    });

    it('direct-PR and no-mistakes land from there: pushed to the far origins, the PR opened by the far account\'s gh, the gate read and released there', async () => {
      const calls = installFarGh(sshd);
      const gate = installFarGate(sshd);
      const checked = await w.hand(['host', 'check', 'far', '--json']);
      const fact = (what: string) => checked.json.facts.find((f: { what: string }) => f.what === what);
      expect(fact('gh')).toMatchObject({ answer: 'yes', detail: expect.stringContaining('gh version') });
      expect(fact('no-mistakes')).toMatchObject({ answer: 'yes' });
      // gh there is not logged in yet: refused, naming the account and the fix; then logged in there.
      const loggedOut = await w.hand(['dispatch', 'w5', '--repo', w.repo, '--brief', w.brief('w5', 'Say hello.'), '--agent', 'mock', '--json']);
      expect(loggedOut.json.error).toMatchObject({ code: 'far-gh-login', message: expect.stringContaining(`gh auth login on far as ${sshd.user}`) });
      asFar(sshd, sshd.home, 'sh', '-c', 'mkdir -p .config/gh && printf "github.com:\\n    user: acme\\n" > .config/gh/hosts.yml');
      // The mock writes its report in its first turn (its brief says where, on the far side).
      const reporting = (id: string) => w.brief(id, `MODE:report ${join(sshd.home, '.kingshand', 'workers', id, 'out', 'report.md')}`);

      const directPr = async () => {
        const d = await ok(['dispatch', 'w5', '--repo', w.repo, '--brief', reporting('w5'), '--agent', 'mock']);
        // The base is the one the far checkout declares.
        expect(d).toMatchObject({ host: 'far', base: 'trunk', gated: true });
        await ok(['approve', 'w5']);
        await ok(['wait', 'w5', '--until', 'settled', '--timeout', '20s']);
        // The worker's commit, made as the far account in its worktree (w1 shows a mock worker committing).
        asFar(sshd, join(farRepo, '.claude', 'worktrees', 'w5'), 'sh', '-c', COMMIT, 'sh', 'pr.txt', 'Add the pr file');
        const land = await ok(['land', 'w5']);
        expect(land).toMatchObject({ gate: 'open', posture: 'direct-PR', evidence: { verdict: 'ready', base: 'trunk' } });
        expect(readFileSync(calls.log, 'utf8')).not.toContain('"create"'); // nothing leaves before the approval
        const approved = await ok(['approve', 'w5'], 60_000);
        expect(approved).toMatchObject({ gate: 'approved', stage: 'landed', landed: { posture: 'direct-PR', pr: 'https://github.com/acme/repo/pull/1', pushed: true }, teardown: { done: true } });
        // Pushed from there, to the far checkout's origin.
        expect(farGit(origin, 'log', '--format=%s', 'worktree-w5')).toContain('Add the pr file');
        // gh ran there as the far account, in its HOME, with none of our environment.
        const create = readFileSync(calls.log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as string[]).find((c) => c[1] === 'create')!;
        expect(create.slice(0, 6)).toEqual(['pr', 'create', '--base', 'trunk', '--head', 'worktree-w5']);
        expect(statSync(calls.log).uid).toBe(sshd.uid);
        const env = readFileSync(calls.env, 'utf8');
        expect(env).toContain(`HOME=${sshd.home}\n`);
        expect(env).toContain(`USER=${sshd.user}\n`);
        expect(env).not.toContain('our-token');
        expect(existsSync(join(farRepo, '.claude', 'worktrees', 'w5'))).toBe(false);
      };

      const gated = async () => {
        // The gate's initialisation is the far checkout's, asked there.
        const refused = await w.hand(['dispatch', 'w6', '--repo', gatesRepo, '--brief', w.brief('w6', 'Say hello.'), '--agent', 'mock', '--host', 'far', '--json']);
        expect(refused.json.error).toMatchObject({ code: 'gate-not-initialised', message: expect.stringContaining(`cd ${farGates} && no-mistakes init`) });
        asFar(sshd, farGates, gate.bin, 'init');
        const d = await ok(['dispatch', 'w6', '--repo', gatesRepo, '--brief', reporting('w6'), '--agent', 'mock', '--host', 'far']);
        expect(d).toMatchObject({ host: 'far', gated: true });
        await ok(['approve', 'w6']);
        expect(readFileSync(join(sshd.home, '.kingshand', 'workers', 'w6', 'brief.md'), 'utf8')).toContain('--skip push,pr,ci');
        await ok(['wait', 'w6', '--until', 'settled', '--timeout', '20s']);
        // The worker's part, as the far account in its worktree: a commit, then the gate with the outward step held.
        const wt = join(farGates, '.claude', 'worktrees', 'w6');
        asFar(sshd, wt, 'sh', '-c', COMMIT, 'sh', 'nm.txt', 'Add the nm file');
        asFar(sshd, wt, gate.bin, 'axi', 'run', '--intent', 'Say hello.', '--skip', 'push,pr,ci');
        const state = JSON.parse(readFileSync(gate.state, 'utf8'));
        Object.assign(state.runs.at(-1), { status: 'completed', outcome: 'passed' });
        writeFileSync(gate.state, JSON.stringify(state));
        const land = await ok(['land', 'w6']);
        expect(land).toMatchObject({ gate: 'open', posture: 'no-mistakes', gateRun: { runId: 'run-1', outcome: 'passed' } });
        const approved = await ok(['approve', 'w6'], 60_000);
        expect(approved).toMatchObject({ stage: 'landed', landed: { posture: 'no-mistakes', pr: 'https://github.com/acme/repo/pull/2', pushed: true }, teardown: { done: true } });
        expect(farGit(gatesOrigin, 'log', '--format=%s', 'worktree-w6')).toContain('Add the nm file');
        // Every gate call ran there, as the far account, in the far worktree.
        const runs = readFileSync(gate.log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { cwd: string; argv: string[] });
        expect(runs.filter((c) => c.argv[1] === 'status').map((c) => c.cwd)).toContain(wt);
        expect(runs.at(-2)).toEqual({ cwd: wt, argv: ['axi', 'run', '--intent', expect.any(String)] }); // the outward step: no --skip
        expect(statSync(gate.log).uid).toBe(sshd.uid);
      };
      // Two projects, two workers at once: each lands on its own posture.
      await Promise.all([directPr(), gated()]);
    }, 60_000);
  });
});
