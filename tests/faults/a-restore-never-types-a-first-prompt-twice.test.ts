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
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { makeCliWorld, type CliWorld } from '../cli/cli-harness.ts';
import { makeTempDir, until } from '../helpers/temp.ts';
import { call } from '../../cli/client.ts';
import { homePaths } from '../../contract/home.ts';
import { killDaemon, seenAt, type FaultWorld } from './fault-world.ts';

const WORKERS = 20;
const ids = Array.from({ length: WORKERS }, (_, i) => `p${i}`);

interface MockEvent { event: string; pid: number; promptSha256?: string }

function events(w: CliWorld, id: string): MockEvent[] {
  const path = join(w.root, `events-${id}.log`);
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as MockEvent);
}
const prompts = (w: CliWorld, id: string) => events(w, id).filter((e) => e.event === 'turn-started');
const finished = (w: CliWorld, id: string) => events(w, id).some((e) => e.event === 'turn-finished');

/**
 * Every worker dispatched at once; even ids take 1 s turns (ending after the fault began), odd
 * ones 4 s (still at work when the daemon dies). `startMs`: the agent draws nothing for that long.
 */
async function dispatchAll(w: CliWorld, startMs = 0): Promise<void> {
  const runs = await Promise.all(ids.map((id, i) => w.hand([
    'dispatch', id, '--repo', w.repo, '--brief', w.brief(id, 'Say hello.'), '--agent', 'mock', '--json',
    '--env', `KH_MOCK_EVENT_LOG=${join(w.root, `events-${id}.log`)}`,
    '--env', `KH_MOCK_REPLY_MS=${i % 2 === 0 ? 1000 : 4000}`,
    '--env', `KH_MOCK_START_MS=${startMs}`,
  ])));
  runs.forEach((r, i) => expect(r.code, `dispatch ${ids[i]}: ${r.stdout}${r.stderr}`).toBe(0));
}

async function everyPromptReceived(w: CliWorld): Promise<void> {
  await until('every worker to receive its first prompt', () => ids.filter((id) => prompts(w, id).length === 0), (missing) => missing.length === 0, 60_000, 100);
}

/** The daemon comes back (the CLI starts it), every worker settles, and each received its brief once. */
async function assertEachPromptedOnce(w: CliWorld): Promise<void> {
  const status = await w.hand(['status', '--json']);
  expect(status.code, status.stdout + status.stderr).toBe(0);
  await seenAt(w as FaultWorld, new Map(ids.map((id) => [id, (s: string) => s.startsWith('settled')])), 'every restored worker to settle', 60_000);
  const counts = Object.fromEntries(ids.map((id) => [id, prompts(w, id).length]));
  expect(counts, 'prompts each mock received (a restore that typed the brief again makes a 2)').toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
  // One agent per worker all along: the restore re-attached, it never started another.
  for (const id of ids) expect(new Set(events(w, id).map((e) => e.pid)).size, `${id}: agent processes`).toBe(1);
}

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
    }
  }, 150_000);

  it(`full disk before the Enter, then SIGKILL: ${WORKERS} first prompts typed and held (their submission cannot be recorded) are each sent once`, async (ctx) => {
    const disk = makeTempDir('prompt-once-disk');
    let mounted: string | null = null;
    let refused: string | null = null;
    // The small disk lives outside the world's temp dir (which only links to it): its cleanup never meets a mount.
    const w = await makeCliWorld('prompt-once-full', {
      daemonProcess: true,
      beforeHome: (home) => {
        const mnt = join(disk.path, 'disk');
        mkdirSync(mnt);
        try {
          execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mnt], { stdio: 'pipe' });
          mounted = mnt;
          mkdirSync(join(mnt, 'state'), { mode: 0o700 });
          execFileSync('ln', ['-s', join(mnt, 'state'), home]);
        } catch (err) {
          refused = String((err as { stderr?: Buffer }).stderr ?? err).trim();
        }
      },
    });
    const filler = mounted ? join(mounted, 'filler') : '';
    try {
      if (refused) ctx.skip(`this machine refuses to mount a tmpfs: ${refused}`);
      expect((await w.hand(['annex', w.repo, '--yolo'])).code).toBe(0);
      // The agents take 4 s to draw their first screen: the disk is full long before any prompt is due.
      await dispatchAll(w, 4000);
      const chunk = Buffer.alloc(16 * 1024, 1);
      for (;;) {
        try {
          writeFileSync(filler, chunk, { flag: 'a' });
        } catch {
          break;
        }
      }
      expect(ids.filter((id) => events(w, id).length > 0), 'agents that had drawn before the disk was full (the premise)').toEqual([]);
      // Each prompt is typed, then held before its Enter: the mark cannot be written.
      const held = (rows: Array<{ id: string; stage: string; promptBox: string | null }>) => rows.filter((r) => r.stage === 'briefing.sending' && r.promptBox);
      await until('every first prompt to be typed and held before its Enter', () => call(homePaths(w.home), 'status', {}, { autostart: false }), (rows) => held(rows).length === WORKERS, 60_000, 200);
      expect(ids.filter((id) => prompts(w, id).length > 0), 'agents that received a prompt whose submission was not recorded').toEqual([]);
      await killDaemon(w as FaultWorld);
      rmSync(filler, { force: true });
      await assertEachPromptedOnce(w);
    } finally {
      await w.cleanup();
      if (mounted) execFileSync('umount', ['-l', mounted], { stdio: 'pipe' });
      disk.cleanup();
    }
  }, 150_000);
});
