/**
 * Fault suite, tmux server: the same catalogue of worker states (worker-states.ts, generated from
 * the machine), the private tmux server killed from outside with every worker in its state. Then:
 * no record says a worker runs whose pane died with the server, and none says gone while a pane
 * runs; a worker dispatched afterwards runs on a fresh server and is reported live — also after
 * a daemon restart; the workers that were held before their pane resume there; the journal is
 * kept; `hand stop` ends every live worker; every id can be dispatched again (docs/fault-suite.md).
 *
 * The state directory is a small tmpfs, filled to its last block just before the server dies
 * (issue 25): a move to gone the disk refuses is kept in the daemon's memory (SQLite may still fit
 * a few in its write-ahead log's pages); the views say gone at once all the same, and every move
 * is written, in order, once space returns.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { call } from '../../cli/client.ts';
import { homePaths } from '../../contract/home.ts';
import { until } from '../helpers/temp.ts';
import { smallDisk } from '../helpers/small-disk.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { plan } from './worker-states.ts';
import {
  assertEveryLivePaneOwned, assertJournalKept, assertNoEndedRecordWithALivePane, dispatchIntoStates, journalSeqs,
  killDaemon, makeFaultWorld, quiesce, redispatchEveryId, statusRowsRestartingTheDaemon, seenAt, statusRows, stopEveryLiveWorker, workerPanes, type FaultWorld,
} from './fault-world.ts';

const { reached } = plan();
let w: FaultWorld | null = null;
const disk = smallDisk('fault-tmux-disk', '64m');
afterAll(async () => {
  await w?.cleanup();
  disk.cleanup();
});

describe('fault suite: the tmux server killed at every worker state', () => {
  it('workers of the dead server are not reported running, later workers are not reported gone, and all of it survives a daemon restart', async () => {
    const started = Date.now();
    const phase = (what: string) => console.log(`fault suite (tmux) +${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`);
    w = await makeFaultWorld('fault-tmux', reached, { beforeHome: (home) => disk.beforeHome(home) });
    if (disk.refused) console.log(`fault suite (tmux): the state directory stays on the test's disk; this machine refuses to mount a tmpfs: ${disk.refused}`);
    const world = w;
    const { held } = await dispatchIntoStates(world, reached);
    const journalBefore = journalSeqs(world);
    phase('every worker in its state');

    const filler = disk.fill();
    execFileSync('tmux', ['-S', world.tmuxSocket, 'kill-server']);
    // Every worker that had a pane hears of it: none may still read as running on a dead server.
    const hadPane = (await statusRows(world)).filter((r) => !['preparing', 'seeding', 'spawning', 'gate'].includes(r.stage.split('.')[0]!) && !['stopped', 'gone'].includes(r.stage));
    // A worker being stopped (a teardown step held) ends stopped: its pane died while it left.
    await seenAt(world, new Map(hadPane.map((r) => [r.id, (s: string) => s === 'gone' || s === 'waitFailed' || (r.stage.startsWith('teardown') && s === 'stopped')])), 'the workers of the killed server to be reported gone');
    phase('tmux server killed, its workers reported gone');
    if (filler) {
      // SQLite may still fit a few rows in its write-ahead log's pages: written then, or kept in memory.
      const ping = await call(homePaths(world.home), 'ping', {}, { autostart: false });
      expect(ping.store === null || ping.store.trouble === 'full', `the store's health on the full disk: ${JSON.stringify(ping.store)}`).toBe(true);
      phase(`disk full: ${ping.store ? `${ping.store.pending} moves kept in memory` : 'the moves fitted in the write-ahead log'}`);
      rmSync(filler, { force: true });
      await until('the waiting moves to be written once space returned', () => call(homePaths(world.home), 'ping', {}, { autostart: false }), (p) => p.store === null, 30_000, 100);
      phase('disk full during the kill; space back, every move written');
    }

    const after = await world.hand(['dispatch', 'after1', '--repo', world.repo, '--brief', world.brief('after1', 'work'), '--agent', 'mock', '--json']);
    expect(after.code, after.stdout + after.stderr).toBe(0);
    await seenAt(world, new Map([['after1', (s: string) => s.startsWith('settled')]]), 'after1, dispatched after the server died, to settle');
    let rows = await statusRows(world);
    let panes = await workerPanes(world);
    expect(rows.find((r) => r.id === 'after1')!.live).toBe(true);
    assertEveryLivePaneOwned(panes, rows, 'after the server was killed');
    assertNoEndedRecordWithALivePane(panes, rows, 'after the server was killed');
    phase('after1 settled on a fresh server');

    // And across a daemon restart (which also releases the workers held before their pane).
    await killDaemon(world);
    await held;
    await statusRowsRestartingTheDaemon(world);
    phase('daemon killed and restarted');
    await quiesce(world, [...reached.map((r) => r.id), 'after1'], reached.filter((r) => r.recipe.atWork).map((r) => r.id));
    rows = await statusRows(world);
    panes = await workerPanes(world);
    expect(rows.find((r) => r.id === 'after1')!.live).toBe(true);
    assertEveryLivePaneOwned(panes, rows, 'after the daemon restart');
    assertNoEndedRecordWithALivePane(panes, rows, 'after the daemon restart');
    assertJournalKept(journalBefore, journalSeqs(world));
    phase('every worker at rest');

    await stopEveryLiveWorker(world);
    phase('every live worker stopped');
    await redispatchEveryId(world, [...reached.map((r) => r.id), 'after1']);
    console.log(`fault suite (tmux server kill): ${reached.length} states in ${Math.round((Date.now() - started) / 1000)} s`);
  }, 600_000);
});
