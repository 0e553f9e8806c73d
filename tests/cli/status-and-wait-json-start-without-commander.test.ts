/**
 * Issue 26 item 4: `hand status --json` and `hand wait <id> --json` are the commands a Hand or a
 * script runs most often, and their start was commander and the command table on top of Node's
 * own (1.9× Node each; the target is 1.6×). The binary answers exactly those shapes (and
 * `--home`) through cli/quick.ts: the same output and exit codes as the full program — which
 * still answers everything else, and a status the quick path cannot answer.
 */
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quickCommand } from '../../cli/quick.ts';
import { makeCliWorld, type CliWorld } from './cli-harness.ts';
import { HAND_BIN } from '../helpers/hand-process.ts';
import { importRecorder } from '../helpers/import-recorder.ts';

/** The binary, asynchronously: the daemon answering it runs in this process. */
async function binary(w: CliWorld, args: string[], importFlag: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await promisify(execFile)(process.execPath, [...importFlag, HAND_BIN, '--home', w.home, ...args], { encoding: 'utf8', env: { ...process.env, ...w.env } });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const loadedTheProgram = (imported: string[]) => imported.filter((s) => s === 'commander' || s.includes('program') || s.includes('main.js') || s.includes('tsx'));

describe('hand status --json and hand wait --json start without commander', () => {
  let w: CliWorld;
  beforeAll(async () => {
    w = await makeCliWorld('quick-cli');
    expect((await w.hand(['annex', w.repo])).code).toBe(0);
    expect((await w.hand(['dispatch', 'q1', '--repo', w.repo, '--brief', w.brief('q1', 'reply and wait'), '--agent', 'mock'])).code).toBe(0);
  });
  afterAll(async () => {
    await w?.cleanup();
  });

  it('status: what the full program prints, having imported neither commander nor the command table', async () => {
    const rec = importRecorder(w.root);
    const quick = await binary(w, ['status', '--json'], rec.importFlag);
    expect(quick.code).toBe(0);
    const imported = rec.imported();
    expect(imported.some((s) => s.includes('quick')), `imports: ${imported.join(', ')}`).toBe(true);
    expect(loadedTheProgram(imported), `imports: ${imported.join(', ')}`).toEqual([]);
    // The full program, asked the same in process (the worker's row may move on between the two
    // reads only in its live fields, so the rows are compared without them).
    const full = await w.hand(['status', '--json']);
    expect(full.code).toBe(0);
    const strip = (text: string) => (JSON.parse(text) as Array<Record<string, unknown>>).map(({ id, project, backend, agent, host }) => ({ id, project, backend, agent, host }));
    expect(strip(quick.stdout)).toEqual(strip(full.stdout));
    expect(strip(quick.stdout).map((r) => r.id)).toEqual(['q1']);
    expect(quick.stdout).toMatch(/^\[\n {2}\{\n {4}"id": "q1"/); // the same layout: two-space JSON, one trailing newline
    expect(quick.stdout.endsWith('}\n]\n')).toBe(true);
  });

  it('wait: the same report and exit code as the full program, a bad --timeout refused alike, without commander', async () => {
    const rec = importRecorder(w.root);
    // q1 waits at the dispatch gate (the project is not yolo): blocked on the person, at once.
    const quick = await binary(w, ['wait', 'q1', '--until', 'blocked', '--timeout', '30s', '--json'], rec.importFlag);
    expect(quick.code, quick.stdout + quick.stderr).toBe(0);
    expect(loadedTheProgram(rec.imported()), `imports: ${rec.imported().join(', ')}`).toEqual([]);
    const full = await w.hand(['wait', 'q1', '--until', 'blocked', '--timeout', '30s', '--json']);
    expect(full.code).toBe(0);
    const pick = (text: string) => {
      const { id, reason, met, state, promptBox, readable } = JSON.parse(text) as Record<string, unknown>;
      return { id, reason, met, state, promptBox, readable };
    };
    expect(pick(quick.stdout)).toEqual(pick(full.stdout));
    expect(pick(quick.stdout)).toMatchObject({ reason: 'blocked', met: true });
    // Not met (it waits on the person, not settled): exit 1, as the full program's.
    const notMet = await binary(w, ['wait', 'q1', '--until', 'settled', '--json']);
    const fullNotMet = await w.hand(['wait', 'q1', '--until', 'settled', '--json']);
    expect([notMet.code, fullNotMet.code]).toEqual([1, 1]);
    expect(pick(notMet.stdout)).toEqual(pick(fullNotMet.stdout));
    expect(JSON.parse(notMet.stdout)).toMatchObject({ met: false, reason: 'blocked' });
    // A bad duration: the full program's words, JSON and exit code.
    const bad = await binary(w, ['wait', 'q1', '--timeout', 'soon', '--json']);
    const fullBad = await w.hand(['wait', 'q1', '--timeout', 'soon', '--json']);
    expect(bad.code).toBe(fullBad.code);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toEqual(JSON.parse(fullBad.stdout));
    expect(bad.stderr).toBe(fullBad.stderr);
  });

  it('backlog ready: what the full program prints, without commander', async () => {
    expect((await w.hand(['backlog', 'add', 'b1', 'first', 'thing', '--project', 'repo'])).code).toBe(0);
    const rec = importRecorder(w.root);
    const quick = await binary(w, ['backlog', 'ready', '--json'], rec.importFlag);
    expect(quick.code, quick.stderr).toBe(0);
    expect(loadedTheProgram(rec.imported()), `imports: ${rec.imported().join(', ')}`).toEqual([]);
    const full = await w.hand(['backlog', 'ready', '--json']);
    expect(quick.stdout).toBe(full.stdout);
    expect((JSON.parse(quick.stdout) as Array<{ id: string }>).map((i) => i.id)).toEqual(['b1']);
  });

  it('a status it cannot answer falls through to the full program, which says what is wrong', () => {
    const notADir = join(w.root, 'imports.txt'); // a file: no state directory can be made there
    const r = spawnSync(process.execPath, [HAND_BIN, '--home', notADir, 'status', '--json'], { encoding: 'utf8', env: { ...process.env, ...w.env } });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(notADir);
  });

  it('takes only the exact shapes, with --home at most', () => {
    expect(quickCommand(['status', '--json'])).toEqual({ kind: 'status', home: undefined });
    expect(quickCommand(['--json', 'status', '--home', '/h'])).toEqual({ kind: 'status', home: '/h' });
    expect(quickCommand(['backlog', 'ready', '--json', '--home', '/h'])).toEqual({ kind: 'backlog-ready', home: '/h' });
    expect(quickCommand(['wait', 'w1', '--json'])).toEqual({ kind: 'wait', home: undefined, id: 'w1', until: undefined, timeout: undefined });
    expect(quickCommand(['wait', 'w1', '--until', 'blocked', '--timeout', '5m', '--json', '--home', '/h'])).toEqual({ kind: 'wait', home: '/h', id: 'w1', until: 'blocked', timeout: '5m' });
    for (const argv of [
      ['backlog', 'ready'], ['backlog', 'ready', '--json', '--project', 'x'], ['backlog', 'list', '--json'], ['ready', '--json'],
      ['status', '--json', 'q1'], ['status', '--json', '--work'], ['status'], ['status', '--json', '--home'],
      ['wait', 'w1'], ['wait', '--json'], ['wait', 'w1', '--json', '--until', 'soon'], ['wait', 'w1', '--json', '--until=blocked'],
      ['wait', 'w1', 'w2', '--json'], ['wait', 'w1', '--json', '--timeout'], ['wait', 'w1', '--json', '--json'], ['wait', 'w1', '--json', '--help'],
    ]) expect(quickCommand(argv), argv.join(' ')).toBeUndefined();
  });
});
