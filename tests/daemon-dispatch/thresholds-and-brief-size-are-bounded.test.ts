/**
 * Issue 25 #5: sane bounds at the daemon's edge, each refused naming the bound before anything
 * is made. `--stall 1ms` (and `--unclear 1ms`) was accepted and a 50 MB brief was copied whole.
 * The daemon in process, so the CLI and the MCP tools (which send the same params) are covered.
 */
import { describe, expect, it } from 'vitest';
import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { useDaemonWorld } from '../helpers/daemon-world.ts';

const world = useDaemonWorld();

describe('thresholds and brief size are bounded', () => {
  it('a stall or unclear threshold under a second is refused naming the minimum, nothing created', async () => {
    const w = await world('bounds-stall');
    await w.call('annex', { repo: w.repo, name: 'p', posture: 'local-only', yolo: true });
    for (const [key, flag] of [['stallMs', '--stall'], ['unclassifiedMs', '--unclear']] as const) {
      const r = await w.refusal('dispatch', { id: 'w1', repo: w.repo, brief: w.brief('w1', 'task'), agent: 'mock', backend: 'tmux', readPaths: [], env: w.env, [key]: 1 });
      expect(r.code, key).toBe('duration-too-short');
      expect(r.exitCode).toBe(2);
      expect(r.message).toContain(`${flag} 1ms is shorter than the minimum of 1s`);
    }
    expect(await w.call('status', {})).toEqual([]);
  });

  it('relaunch refuses the same short stall instead of ignoring it', async () => {
    const w = await world('bounds-relaunch');
    const r = await w.refusal('relaunch', { id: 'nobody', stallMs: 1 });
    expect(r.code).toBe('duration-too-short');
  });

  it('a brief over 1 MiB is refused naming the bound, and never copied', async () => {
    const w = await world('bounds-brief');
    await w.call('annex', { repo: w.repo, name: 'p', posture: 'local-only', yolo: true });
    const brief = w.brief('big', 'task');
    appendFileSync(brief, `\n${'words of a brief '.repeat(128 * 1024)}\n`); // 2 MiB of text, a valid brief otherwise
    const r = await w.refusal('dispatch', { id: 'big', repo: w.repo, brief, agent: 'mock', backend: 'tmux', readPaths: [], env: w.env });
    expect(r.code).toBe('brief-too-large');
    expect(r.message).toContain('over the maximum of 1048576 bytes (1 MiB)');
    expect(await w.call('status', {})).toEqual([]);
    expect(existsSync(join(w.home, 'workers', 'big'))).toBe(false);
  });
});
