/**
 * Every command's bad-input paths: the exit code says refused (1), bad usage (2) or daemon
 * unreachable (3), and the message names the bad value and what to do instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeCliWorld, type CliWorld } from './cli-harness.ts';

let w: CliWorld;
beforeAll(async () => {
  w = await makeCliWorld('cli-bad');
});
afterAll(async () => {
  await w.cleanup();
});

describe('bad input is refused with a message that says what to do', () => {
  it('daemon status without a daemon is unreachable (exit 3)', async () => {
    const r = await w.hand(['daemon', 'status']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/hand daemon start/);
  });

  it('an unknown worker id is refused (exit 1) and points at hand status', async () => {
    for (const args of [['status', 'nope'], ['wait', 'nope', '--timeout', '1s'], ['read', 'nope'], ['send', 'nope', 'hi'], ['keys', 'nope', 'enter'], ['stop', 'nope']]) {
      const r = await w.hand(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(/"nope"/);
      expect(r.stderr).toMatch(/hand status/);
    }
  });

  it('dispatch into an unregistered repository is refused and names hand annex', async () => {
    const r = await w.hand(['dispatch', 'w1', '--repo', w.repo, '--brief', w.brief('b', 'x'), '--agent', 'mock', '--json']);
    expect(r.code).toBe(1);
    expect(r.json.error.code).toBe('unregistered-repo');
    expect(r.stderr).toContain(`hand annex ${w.repo}`);
  });

  it('a missing brief is bad input (exit 2) naming the path', async () => {
    await w.hand(['annex', w.repo]);
    const missing = join(w.root, 'no-such-brief.md');
    const r = await w.hand(['dispatch', 'w1', '--repo', w.repo, '--brief', missing, '--agent', 'mock']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(missing);
  });

  it('a bad duration is bad input (exit 2) and shows the accepted forms', async () => {
    const r = await w.hand(['dispatch', 'w1', '--repo', w.repo, '--brief', w.brief('b2', 'x'), '--stall', '5 fortnights']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/"5 fortnights".*20m/);
    const t = await w.hand(['wait', 'w1', '--timeout', 'soon']);
    expect(t.code).toBe(2);
  });

  it('two keys at once are refused (exit 2): one key per call', async () => {
    const r = await w.hand(['keys', 'w1', 'down', 'enter']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/exactly one key per call/);
    const word = await w.hand(['keys', 'w1', 'hello']);
    expect(word.code).toBe(2);
    expect(word.stderr).toMatch(/hand send/);
  });

  it('an unusable state directory is bad input (exit 2) and names --home', async () => {
    const file = join(w.root, 'not-a-dir');
    writeFileSync(file, 'x');
    const r = await w.hand(['--home', file, 'status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--home/);
  });

  it('annex refuses a directory that is not a git work tree', async () => {
    const plain = join(w.root, 'plain');
    mkdirSync(plain);
    const r = await w.hand(['annex', plain, '--json']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(plain);
  });

  it('an unknown option value is bad usage (exit 2)', async () => {
    const r = await w.hand(['dispatch', 'w1', '--repo', w.repo, '--brief', 'x', '--backend', 'screen']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/tmux, pty, herdr/);
  });

  it('screen inspect of a missing file is bad input (exit 2)', async () => {
    const r = await w.hand(['screen', 'inspect', join(w.root, 'nothing.txt')]);
    expect(r.code).toBe(2);
  });
});
