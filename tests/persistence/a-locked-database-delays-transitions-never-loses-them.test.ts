/**
 * Rule (issue 25, item 2): another process holding a write lock on fleet.db never stalls the
 * daemon and never loses or duplicates a journal row. Before: every write blocked the event loop
 * about 5 s (`hand send` took 29 s) and the transitions made during the lock were never written —
 * the journal lost a `settled → working` row and gained a duplicate.
 *
 * A real second SQLite connection takes the write lock (BEGIN IMMEDIATE) while a mock worker
 * takes a prompt and settles; the daemon answers at once, says the database is locked and how
 * many transitions wait, and once the lock is released writes them all, in order, each once.
 */
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { settledMockWorker, useDaemonWorld } from '../helpers/daemon-world.ts';
import { until } from '../helpers/temp.ts';

const world = useDaemonWorld();

interface Row { seq: number; from_json: string | null; to_json: string | null; event_json: string }

describe('a locked database delays transitions, never loses them', () => {
  it('a worker moves while another connection holds the write lock: the daemon answers at once, and every row is written once, in order, when the lock goes', async () => {
    const w = await world('locked-db');
    await settledMockWorker(w, 'lk', 'Say hello.');

    const holder = new Database(w.paths.db);
    const loop = monitorEventLoopDelay({ resolution: 10 });
    try {
      holder.exec('BEGIN IMMEDIATE');
      holder.prepare("INSERT INTO journal (actor_id, event_json, from_json, to_json, at) VALUES ('test', '{}', NULL, NULL, 0)").run();
      loop.enable();
      const t0 = Date.now();
      const sent = await w.call('send', { id: 'lk', text: 'Say done.' });
      expect(sent.sent).toBe(true);
      const sentMs = Date.now() - t0;
      await w.call('wait', { id: 'lk', until: 'settled', timeoutMs: 30_000 });
      const tookMs = Date.now() - t0;
      expect(sentMs, 'hand send under the lock (it took 29 s before)').toBeLessThan(3_000);
      expect(tookMs, 'a send and a settled turn under the lock').toBeLessThan(10_000);
      const ping = await until('the daemon to say the database is locked', () => w.call('ping'), (p) => p.store !== null);
      expect(ping.store).toMatchObject({ trouble: 'locked' });
      expect(ping.store.pending).toBeGreaterThan(0);
      // A request that must write now is refused whole, with the reason and the fix.
      const refused = await w.refusal('backlog.add', { project: 'repo', id: 'i1', title: 'a task' });
      expect(refused).toMatchObject({ code: 'state-db-locked', exitCode: 1 });
      expect(refused.message).toMatch(/locked by another process.*nothing was changed/);
      loop.disable();
      // A lock never stalls the event loop: each write waits at most the short busy timeout.
      expect(loop.max / 1e6, 'longest event-loop stall (ms) while locked').toBeLessThan(1_000);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }

    await until('the queued transitions to be written', () => w.call('ping'), (p) => p.store === null);
    const reader = new Database(w.paths.db, { readonly: true });
    try {
      const rows = reader.prepare("SELECT seq, from_json, to_json, event_json FROM journal WHERE actor_id = 'worker:lk' ORDER BY seq").all() as Row[];
      const moves = rows.filter((r) => r.from_json !== r.to_json && r.from_json !== null);
      // No hole: each move starts where the previous one ended.
      for (let i = 1; i < moves.length; i++) {
        expect(JSON.parse(moves[i]!.from_json!), `row ${moves[i]!.seq} starts where row ${moves[i - 1]!.seq} ended`).toEqual(JSON.parse(moves[i - 1]!.to_json!));
      }
      // The turn under the lock is there: back to work after the first settle, and settled again.
      const stages = moves.map((r) => JSON.parse(r.to_json!) as string);
      const firstSettle = stages.findIndex((s) => s.startsWith('settled'));
      expect(firstSettle, stages.join(' → ')).toBeGreaterThanOrEqual(0);
      expect(stages.slice(firstSettle + 1).some((s) => s.startsWith('running')), stages.join(' → ')).toBe(true);
      expect(stages.at(-1)!.startsWith('settled'), stages.join(' → ')).toBe(true);
      // No duplicate: a retried write is never written twice (the same row twice in a row).
      const keys = rows.map((r) => `${r.from_json}|${r.to_json}|${r.event_json}`);
      const dupes = rows.filter((_, i) => i > 0 && keys[i] === keys[i - 1]);
      expect(dupes, 'journal rows written twice').toEqual([]);
    } finally {
      reader.close();
    }
  });
});
