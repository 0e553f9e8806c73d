/**
 * Input hygiene: every value a person types is checked, refused in the words of its flag, and
 * refused before anything is created. Before: `logs -n abc` was ignored, `--timeout 0` said
 * "invalid timeoutMs", a too-long --home was created then refused, `annex ''` registered the
 * current directory, `--read-path ~/.ssh/id_rsa` was copied into the worker's folder silently,
 * and a dispatch refused for a worktree path git does not own left a failed record and a brief.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCliWorld, type CliWorld } from './cli-harness.ts';
import { handRunner } from '../helpers/hand-process.ts';

let w: CliWorld;
beforeAll(async () => {
  w = await makeCliWorld('cli-hygiene');
  expect((await w.hand(['annex', w.repo])).code).toBe(0);
});
afterAll(async () => {
  await w.cleanup();
});

describe('bad values are refused before anything is made', () => {
  it('logs -n takes a whole number of lines: abc and -5 are refused naming the flag', async () => {
    for (const bad of ['abc', '-5', '0', '5x']) {
      const r = await w.hand(['logs', '-n', bad]);
      expect(r.code, bad).toBe(2);
      expect(r.stderr, bad).toMatch(/--lines|-n/);
    }
    expect((await w.hand(['logs', '-n', '2'])).code).toBe(0);
  });

  it('--timeout 0 is refused in the flag’s words, not a wire name', async () => {
    const r = await w.hand(['wait', 'w1', '--timeout', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--timeout "0" is not a positive duration');
    expect(r.stderr).not.toContain('timeoutMs');
  });

  it('a --home too long for its socket is refused and not created', async () => {
    const long = join(w.root, 'x'.repeat(60), 'y'.repeat(60));
    const r = await handRunner(long, w.env, 30_000)(['status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/too long for a Unix socket.*nothing was created/);
    expect(existsSync(join(w.root, 'x'.repeat(60)))).toBe(false);
  });

  it("annex '' (and an empty --repo, --brief or --read-path) is refused, never the current directory", async () => {
    const r = await w.hand(['annex', '']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/empty/);
    for (const args of [['--repo', ''], ['--brief', ''], ['--read-path', '']]) {
      const base = { '--repo': w.repo, '--brief': w.brief('e', 'x'), '--read-path': null as string | null };
      const argv = ['dispatch', 'e1', '--agent', 'mock', '--repo', args[0] === '--repo' ? '' : base['--repo'], '--brief', args[0] === '--brief' ? '' : base['--brief']];
      if (args[0] === '--read-path') argv.push('--read-path', '');
      const d = await w.hand(argv);
      expect(d.code, args[0]).toBe(2);
      expect(d.stderr, args[0]).toMatch(/empty/);
    }
  });

  it('--read-path of a key, a credential or a system secret is refused; nothing is copied or recorded', async () => {
    const ssh = join(w.agentHome, '.ssh');
    mkdirSync(ssh, { recursive: true });
    writeFileSync(join(ssh, 'id_rsa'), 'PRIVATE KEY\n');
    const aws = join(w.agentHome, '.aws');
    mkdirSync(aws, { recursive: true });
    writeFileSync(join(aws, 'credentials'), '[default]\n');
    const denied = [join(ssh, 'id_rsa'), join(aws, 'credentials'), '/etc/shadow', join(w.home, 'fleet.db')];
    for (const secret of denied) {
      if (!existsSync(secret)) continue;
      const r = await w.hand(['dispatch', 's1', '--repo', w.repo, '--brief', w.brief('s', 'x'), '--read-path', secret, '--agent', 'mock', '--json']);
      expect(r.code, secret).toBe(2);
      expect(r.json.error.code, secret).toBe('read-path-denied');
      expect(existsSync(join(w.home, 'workers', 's1')), secret).toBe(false);
    }
    expect((await w.hand(['status', '--json'])).json).toEqual([]);
  });

  it('an allowed --read-path is copied, and dispatch says what it copied', async () => {
    const spec = join(w.root, 'spec.md');
    writeFileSync(spec, 'the spec\n');
    const r = await w.hand(['dispatch', 'ok1', '--repo', w.repo, '--brief', w.brief('ok', 'x'), '--read-path', spec, '--agent', 'mock']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`copied   ${spec} → ${join(w.home, 'workers', 'ok1', 'read-first', 'spec.md')}`);
  });

  it('a dispatch refused because git does not own the worktree path leaves no record and no brief folder', async () => {
    const foreign = join(w.repo, '.claude', 'worktrees', 'f1');
    mkdirSync(foreign, { recursive: true });
    writeFileSync(join(foreign, 'mine.txt'), 'not a worktree\n');
    const r = await w.hand(['dispatch', 'f1', '--repo', w.repo, '--brief', w.brief('f', 'x'), '--agent', 'mock', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('worktree-path-not-owned');
    expect(existsSync(join(w.home, 'workers', 'f1'))).toBe(false);
    expect((await w.hand(['status', '--json'])).json.map((v: { id: string }) => v.id)).not.toContain('f1');
    expect(existsSync(join(foreign, 'mine.txt'))).toBe(true);
  });
});
