/**
 * Issue 26 item 4: `hand status --json` is the command a Hand or a script runs most often, and
 * its start was commander and the command table on top of Node's own (1.9× Node at 201
 * workers; the target is 1.6×). The binary now answers exactly `status --json` (and `--home`)
 * through cli/quick-status.ts: the same rows, printed the same way, as the full program — which
 * still answers everything else, and every failure (the quick path prints nothing then).
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quickStatusHome } from '../../cli/quick-status.ts';
import { makeCliWorld, type CliWorld } from './cli-harness.ts';
import { HAND_BIN } from '../helpers/hand-process.ts';
import { importRecorder } from '../helpers/import-recorder.ts';

describe('hand status --json starts without commander', () => {
  let w: CliWorld;
  beforeAll(async () => {
    w = await makeCliWorld('status-quick');
    expect((await w.hand(['annex', w.repo])).code).toBe(0);
    expect((await w.hand(['dispatch', 'q1', '--repo', w.repo, '--brief', w.brief('q1', 'reply and wait'), '--agent', 'mock'])).code).toBe(0);
  });
  afterAll(async () => {
    await w?.cleanup();
  });

  it('prints what the full program prints, having imported neither commander nor the command table', async () => {
    const rec = importRecorder(w.root);
    // Asynchronously: the daemon answering it runs in this process.
    const { stdout: quick } = await promisify(execFile)(process.execPath, [...rec.importFlag, HAND_BIN, '--home', w.home, 'status', '--json'], { encoding: 'utf8', env: { ...process.env, ...w.env } });
    const imported = rec.imported();
    expect(imported.some((s) => s.includes('quick-status')), `imports: ${imported.join(', ')}`).toBe(true);
    expect(imported.filter((s) => s === 'commander' || s.includes('program') || s.includes('main.js') || s.includes('tsx')), `imports: ${imported.join(', ')}`).toEqual([]);
    // The full program, asked the same in process (the worker's row may move on between the two
    // reads only in its live fields, so the rows are compared without them).
    const full = await w.hand(['status', '--json']);
    expect(full.code).toBe(0);
    const strip = (text: string) => (JSON.parse(text) as Array<Record<string, unknown>>).map(({ id, project, backend, agent, host }) => ({ id, project, backend, agent, host }));
    expect(strip(quick)).toEqual(strip(full.stdout));
    expect(strip(quick).map((r) => r.id)).toEqual(['q1']);
    expect(quick).toMatch(/^\[\n {2}\{\n {4}"id": "q1"/); // the same layout: two-space JSON, one trailing newline
    expect(quick.endsWith('}\n]\n')).toBe(true);
  });

  it('falls through to the full program, which says what is wrong, when it cannot answer', () => {
    const notADir = join(w.root, 'imports.txt'); // a file: no state directory can be made there
    const r = spawnSync(process.execPath, [HAND_BIN, '--home', notADir, 'status', '--json'], { encoding: 'utf8', env: { ...process.env, ...w.env } });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(notADir);
  });

  it('takes only exactly `status --json`, with --home at most', () => {
    expect(quickStatusHome(['status', '--json'])).toEqual({ home: undefined });
    expect(quickStatusHome(['--json', 'status', '--home', '/h'])).toEqual({ home: '/h' });
    expect(quickStatusHome(['status', '--json', 'q1'])).toBeUndefined();
    expect(quickStatusHome(['status', '--json', '--work'])).toBeUndefined();
    expect(quickStatusHome(['status'])).toBeUndefined();
    expect(quickStatusHome(['status', '--json', '--home'])).toBeUndefined();
  });
});
