/**
 * Fault suite, daemon: for every state of the worker machine a real dispatch passes through
 * (the catalogue in worker-states.ts, generated from the machine), a worker is put there, the
 * daemon is SIGKILLed with all of them in place at once, and the next command starts it again.
 * Then the invariants (docs/fault-suite.md): every live pane belongs to exactly one worker record
 * that says live; no record says gone, failed or lost while its pane runs; nothing in the journal
 * is lost; `hand stop` ends every live worker; every id can be dispatched again.
 *
 * The kill comes while another process holds fleet.db's write lock (issue 25): every transition
 * made after the workers reached their states is kept only in the daemon's memory and dies with
 * it, so the restart restores each worker from what the database last took — a stage that may
 * be behind its pane — and the same invariants must hold.
 */
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { call } from '../../cli/client.ts';
import { homePaths } from '../../contract/home.ts';
import { plan } from './worker-states.ts';
import {
  assertEveryLivePaneOwned, assertJournalKept, assertNoEndedRecordWithALivePane, dispatchIntoStates, journalSeqs,
  killDaemon, makeFaultWorld, quiesce, redispatchEveryId, statusRowsRestartingTheDaemon, statusRows, stopEveryLiveWorker, workerPanes, type FaultWorld,
} from './fault-world.ts';

const { reached, skipped, unknown } = plan();
let w: FaultWorld | null = null;
afterAll(async () => {
  await w?.cleanup();
});

describe('fault suite: the daemon SIGKILLed at every worker state', () => {
  it('every state of the worker machine has a recipe or a reason to be skipped', () => {
    expect(unknown, 'states of machines/worker.machine.ts with no fault recipe and no reason: add them to tests/faults/worker-states.ts').toEqual([]);
    console.log(`fault suite: ${reached.length} states reached (${reached.map((r) => r.state).join(', ')}); ${skipped.length} skipped:\n${skipped.map((s) => `  ${s.state}: ${s.reason}`).join('\n')}`);
    // 12 of 52 before issue 43; each state left out says why in worker-states.ts.
    expect(reached.length).toBeGreaterThanOrEqual(20);
  });

  it('after the kill and a restart, no pane is orphaned, nothing is wiped, every worker stops and its id is free again', async () => {
    const started = Date.now();
    const phase = (what: string) => console.log(`fault suite +${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`);
    w = await makeFaultWorld('fault-daemon', reached);
    const world = w;
    const { held } = await dispatchIntoStates(world, reached);
    const journalBefore = journalSeqs(world);
    phase('every worker in its state');

    const lock = new Database(homePaths(world.home).db);
    try {
      lock.exec('BEGIN IMMEDIATE');
      lock.prepare("INSERT INTO journal (actor_id, event_json, from_json, to_json, at) VALUES ('fault-suite', '{}', NULL, NULL, 0)").run();
      const ping = await call(homePaths(world.home), 'ping', {}, { autostart: false });
      expect(ping.store === null || ping.store.trouble === 'locked', `the daemon's store health under the lock: ${JSON.stringify(ping.store)}`).toBe(true);
      await killDaemon(world);
      await held; // the dispatch calls held before their pane end with their daemon
    } finally {
      lock.exec('ROLLBACK');
      lock.close();
    }
    phase('daemon killed while the database was locked');
    const rowsNow = await statusRowsRestartingTheDaemon(world); // without the holds
    expect(rowsNow.map((r) => r.id).sort()).toEqual(reached.map((r) => r.id).sort());
    assertNoEndedRecordWithALivePane(await workerPanes(world), rowsNow, 'right after the restart');

    phase('daemon restarted');
    await quiesce(world, reached.map((r) => r.id), reached.filter((r) => r.recipe.atWork).map((r) => r.id));
    phase('every worker at rest');
    const rows = await statusRows(world);
    const panes = await workerPanes(world);
    assertEveryLivePaneOwned(panes, rows, 'after the restart');
    assertNoEndedRecordWithALivePane(panes, rows, 'after the restart');
    // The worker killed between its first prompt's text and Enter submitted it: live, at work or done with it.
    const sending = rows.find((r) => r.id === 'at-briefing-sending');
    if (sending) expect(sending.stage, 'the worker killed mid-brief').toMatch(/^(running|settled|done)/);
    assertJournalKept(journalBefore, journalSeqs(world));

    await stopEveryLiveWorker(world);
    phase('every live worker stopped');
    await redispatchEveryId(world, reached.map((r) => r.id));
    console.log(`fault suite (daemon kill): ${reached.length} states in ${Math.round((Date.now() - started) / 1000)} s`);
  }, 600_000);
});
