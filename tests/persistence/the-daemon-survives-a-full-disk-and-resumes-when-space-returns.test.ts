/**
 * Rule (issue 25, item 1): the daemon survives a full disk under its state directory. Streaming
 * workers on a 4 MB tmpfs `HAND_HOME`, the disk filled: the daemon keeps answering, says the disk
 * is full and how many transitions wait, keeps its workers; when space returns it writes them by
 * itself, in order, and the log it keeps on that disk stays bounded (the WAL, never checkpointed
 * below 4 MB, had taken 2.6 MB of a 3 MB disk and ate freed space again in seconds). Before, the
 * daemon died within 8–10 s with no reason anywhere.
 */
import { describe, expect, it } from 'vitest';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { makeDaemonWorld, type DaemonWorld } from '../helpers/daemon-world.ts';
import { until } from '../helpers/temp.ts';
import { smallDisk } from '../helpers/small-disk.ts';
import { inProcessHand } from '../helpers/hand-in-process.ts';

/** The shared poll, at this test's pace: a tmpfs refill and a daemon retry take seconds. */
const untilOnDisk = <T>(what: string, read: () => Promise<T>, check: (v: T) => boolean, boundMs: number) => until(what, read, check, boundMs, 100);

describe('the daemon survives a full disk and resumes when space returns', () => {
  it('streaming workers on a full 4 MB state disk: the daemon answers, says why, and writes every transition once space returns', async (ctx) => {
    let w: DaemonWorld | null = null;
    const disk = smallDisk('full-disk-mnt', '4m');
    try {
      w = await makeDaemonWorld('full-disk', { env: { KH_MOCK_TICK_MS: '50' }, beforeHome: (home) => disk.beforeHome(home) });
      if (disk.refused) ctx.skip(`this machine refuses to mount a tmpfs: ${disk.refused}`);
      await w.call('annex', { repo: w.repo, yolo: true });
      for (const id of ['s1', 's2']) await w.dispatch(id, 'MODE:hang keep working');
      await untilOnDisk('both workers at work', () => w!.call('status', {}), (rows: Array<{ stage: string }>) => rows.filter((r) => r.stage === 'running.working').length === 2, 30_000);

      const filler = disk.fill()!;
      // A spinner that reads the same writes nothing (actors/pane-feed.ts): a turn interrupted on
      // the full disk is the change whose transitions must wait.
      await w.call('keys', { id: 's1', key: 'escape' });
      const full = await untilOnDisk('the daemon to say the disk is full', () => w!.call('ping'), (p) => p.store?.trouble === 'full', 30_000);
      expect(full.store.pending).toBeGreaterThan(0);
      const rows = (await w.call('status', {})) as Array<{ id: string; stage: string }>;
      expect(rows.find((r) => r.id === 's2')?.stage, 'the other worker is kept, still at work').toBe('running.working');
      expect(rows.find((r) => r.id === 's1')?.stage, 'the interrupted one moved on in memory').not.toBe('running.working');
      // The person's commands say it, and where: `hand status` under its table, `hand doctor` as failed checks.
      const person = inProcessHand(w.home, w.env, 20_000).hand;
      const status = await person(['status']);
      expect(status.stdout).toContain(`the disk under it (${w.home}) is full; free space there`);
      const doctor = await person(['doctor', '--json']);
      const checks = doctor.json.checks as Array<{ name: string; ok: boolean; detail: string; fix?: string }>;
      expect(checks.find((c) => c.name === 'disk space'), 'doctor: disk space').toMatchObject({ ok: false, fix: expect.stringContaining('df -h') });
      expect(checks.find((c) => c.name === 'state writes'), 'doctor: state writes').toMatchObject({ ok: false, detail: expect.stringContaining('is full') });

      rmSync(filler);
      await untilOnDisk('the waiting transitions to be written once space returned', () => w!.call('ping'), (p) => p.store === null, 30_000);
      // Still healthy a few seconds later: the freed space was not eaten again by the log.
      await new Promise((r) => setTimeout(r, 3000));
      expect((await w.call('ping')).store).toBeNull();
      expect(statSync(join(w.home, 'fleet.db-wal')).size, 'the write-ahead log stays bounded').toBeLessThanOrEqual(2 * 1024 * 1024);

      const db = new Database(w.paths.db, { readonly: true });
      try {
        for (const id of ['s1', 's2']) {
          const moves = (db.prepare('SELECT seq, from_json, to_json FROM journal WHERE actor_id = ? ORDER BY seq').all(`worker:${id}`) as Array<{ seq: number; from_json: string | null; to_json: string | null }>)
            .filter((r) => r.from_json !== null && r.from_json !== r.to_json);
          for (let i = 1; i < moves.length; i++) expect(moves[i]!.from_json, `worker ${id} row ${moves[i]!.seq}`).toBe(moves[i - 1]!.to_json);
        }
      } finally {
        db.close();
      }
    } finally {
      await w?.cleanup();
      disk.cleanup();
    }
  });
});
