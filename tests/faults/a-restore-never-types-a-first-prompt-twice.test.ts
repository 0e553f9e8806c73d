/**
 * Rule (issue 25, item 1): a restore never types a first prompt that was already submitted.
 *
 * Before, a daemon whose transitions could not be written (another process holding fleet.db's
 * write lock, or a full disk under the state directory) and that then died (a SIGKILL; on a full
 * disk it used to die by itself) was restored at the stage its database last took — from before
 * the prompt went out — and typed the brief again: the agent ran it twice (2 of 2 runs on a
 * full disk). Now the submission is marked on disk before its Enter and the restore reads the
 * mark and the screen: sent is never typed again, typed-not-sent gets its one Enter.
 *
 * Twenty mock workers per case, each with its own event log: the mock notes every prompt it
 * receives (`turn-started`, with the prompt's hash). Half take short turns (settled when the
 * daemon dies), half long ones (mid-turn). After the restart every worker settles having
 * received exactly one prompt, its brief.
 */
import { describe, expect, it } from 'vitest';
import { makeCliWorld } from '../cli/cli-harness.ts';
import { until } from '../helpers/temp.ts';
import { call } from '../../cli/client.ts';
import { homePaths } from '../../contract/home.ts';
import { killDaemon, type FaultWorld } from './fault-world.ts';
import Database from 'better-sqlite3';
import { WORKERS, assertEachPromptedOnce, dispatchAll, everyPromptReceived, finished, ids } from './first-prompt-world.ts';
import { removeEventLogs } from './first-prompt-world.ts';

describe('a restore never types a first prompt twice', () => {
  it(`lock, then SIGKILL: ${WORKERS} workers restored at a stage from before their prompt went out each receive it once`, async () => {
    const w = await makeCliWorld('prompt-once-lock', { daemonProcess: true });
    const holder = { db: null as Database.Database | null };
    try {
      expect((await w.hand(['annex', w.repo, '--yolo'])).code).toBe(0);
      await dispatchAll(w);
      // Another process takes the write lock: from here on the daemon keeps every transition in memory.
      holder.db = new Database(homePaths(w.home).db);
      holder.db.exec('BEGIN IMMEDIATE');
      holder.db.prepare("INSERT INTO journal (actor_id, event_json, from_json, to_json, at) VALUES ('test', '{}', NULL, NULL, 0)").run();
      await everyPromptReceived(w);
      await until('the short turns to finish', () => ids.filter((id, i) => i % 2 === 0 && !finished(w, id)), (left) => left.length === 0, 30_000, 100);
      const ping = await call(homePaths(w.home), 'ping', {}, { autostart: false });
      expect(ping.store, 'the daemon holds its transitions (the database is locked)').toMatchObject({ trouble: 'locked' });
      // The daemon dies with them: the database says every worker is still where the lock found it.
      await killDaemon(w as FaultWorld);
      holder.db.exec('ROLLBACK');
      holder.db.close();
      holder.db = null;
      await assertEachPromptedOnce(w);
    } finally {
      holder.db?.close();
      await w.cleanup();
      await removeEventLogs(w);
    }
  }, 150_000);

});
