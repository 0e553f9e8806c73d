/**
 * The daemon's git commands are started by a small runner process of its own (io/process/runner.ts:
 * a fork of the daemon held its thread ~15 ms a command); tmux and ssh stay in the daemon. What a
 * caller gets must not depend on
 * who started the command: exit status, output, a missing program, a timeout, input on stdin (text
 * and bytes), a bad working directory — each the same both ways. And a runner that ends while a
 * command runs makes that command a failure, never a second run: the command may have run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runArgv, type RunOptions } from '../../io/process/run-argv.ts';
import { commandRunner, commandRunnerFor, useCommandRunner } from '../../io/process/runner.ts';
import { makeTempDir, waitFor } from '../helpers/temp.ts';

const dir = makeTempDir('runner');
afterAll(() => dir.cleanup());

const CASES: Array<[string, string, string[], Partial<RunOptions>]> = [
  ['exit 0 with output', 'git', ['--version'], {}],
  ['a status, stdout and stderr', 'sh', ['-c', 'echo out; echo err >&2; exit 3'], {}],
  ['a program that does not exist', 'kh-no-such-program', [], {}],
  ['a timeout', 'sleep', ['5'], { timeoutMs: 150 }],
  ['text on stdin', 'cat', [], { input: 'hello' }],
  ['bytes on stdin', 'cat', [], { input: new Uint8Array([104, 105]) }],
  ['a working directory that does not exist', 'pwd', [], { cwd: join(dir.path, 'missing') }],
];

describe('a command started by the runner answers as one started by the daemon', () => {
  it('the same result either way, for every way a command ends', async () => {
    const run = () => Promise.all(CASES.map(([, file, args, o]) => runArgv(file, args, { env: process.env, ...o })));
    useCommandRunner(false); // a daemon made in this process before turned it on
    expect(commandRunner()).toBeNull();
    const direct = await run();
    // Every kind of ending, sent through the runner (the daemon sends git alone).
    useCommandRunner(true, () => true);
    expect(commandRunner()).not.toBeNull();
    const viaRunner = await run();
    useCommandRunner();
    CASES.forEach(([what], i) => expect(viaRunner[i], what).toEqual(direct[i]));
    expect(direct[1]).toEqual({ exitCode: 3, stdout: 'out\n', stderr: 'err\n' });
    expect(direct[3]!.error).toContain('killed');
  });

  it("the daemon's runner takes git and nothing else: a tmux or shell command is started by the daemon itself", async () => {
    useCommandRunner();
    const parent = await runArgv('sh', ['-c', 'echo $PPID'], { env: process.env });
    expect(Number(parent.stdout.trim())).toBe(process.pid);
    expect(commandRunnerFor('tmux')).toBeNull();
    expect(commandRunnerFor('ssh')).toBeNull();
    expect(commandRunnerFor('git')).toBe(commandRunner());
    expect(commandRunner()).not.toBeNull();
  });

  it('a runner that ends mid-command fails that command once, and the next command gets a new runner', async () => {
    useCommandRunner(true, () => true);
    const marks = join(dir.path, 'marks');
    const first = commandRunner()!;
    const running = runArgv('sh', ['-c', 'echo ran >> "$1"; sleep 1', 'sh', marks], { env: process.env });
    await waitFor(() => existsSync(marks), { what: 'the command to have started', timeoutMs: 5_000 });
    process.kill(first.pid!, 'SIGKILL');
    const r = await running;
    expect(r.exitCode).toBeNull();
    expect(r.error).toBe('the command runner ended before the command did');
    expect(readFileSync(marks, 'utf8')).toBe('ran\n');
    const next = await runArgv('git', ['--version'], { env: process.env });
    expect(next.exitCode).toBe(0);
    expect(commandRunner()!.pid).not.toBe(first.pid);
    useCommandRunner();
  });
});
