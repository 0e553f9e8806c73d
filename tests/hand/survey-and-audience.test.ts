/**
 * `hand survey` (the whole picture in four buckets, each worker in exactly one) and
 * `hand audience` (what happened since a time: dispatches, blocks, answers, rests, ends, per
 * worker, de-duplicated, newest last), read from the journal so it reads the same after a
 * daemon restart; without --since it starts at the session start the SessionStart hook recorded.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CliWorld } from '../cli/cli-harness.ts';
import { audienceEventsOf, useAnnexedWorld } from '../helpers/cli-world.ts';

const QUESTION = 'Which database should the fake project use?';
let w: CliWorld;
let t0: number;

useAnnexedWorld('hand-survey', ['--yolo', '--json'], (world, since) => {
  w = world;
  t0 = since;
});

const kinds = (a: any, id: string): string[] => audienceEventsOf(a, id).map((e) => e.kind);

describe('hand survey and hand audience', () => {
  it('survey puts a blocked worker under needsYou with its question and options', async () => {
    const brief = w.brief('asker', 'MODE:ask pick one');
    expect((await w.hand(['dispatch', 'asker', '--repo', w.repo, '--brief', brief, '--agent', 'mock', '--json'])).code).toBe(0);
    expect((await w.hand(['wait', 'asker', '--until', 'blocked', '--timeout', '30s', '--json'])).code).toBe(0);
    const r = await w.hand(['survey', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.contract).toBe('hand-survey.v1');
    expect(r.json.needsYou).toEqual([expect.objectContaining({ id: 'asker', kind: 'blocked', text: `asker asks — worker asker wrote: ${JSON.stringify(QUESTION)}` })]);
    // The question and options are the worker's words: quoted and attributed (issue 37).
    expect(r.json.workers[0]).toMatchObject({ id: 'asker', condition: 'blocked', question: `worker asker wrote: ${JSON.stringify(QUESTION)}` });
    expect(r.json.workers[0].options).toEqual(expect.arrayContaining(['worker asker wrote: "1. SQLite"', 'worker asker wrote: "2. Postgres"']));
    const buckets = ['needsYou', 'recentlyLanded', 'underway', 'next'].flatMap((b) => r.json[b].map((i: any) => i.id));
    expect(buckets.filter((id: string) => id === 'asker')).toHaveLength(1);
    const text = await w.hand(['survey']);
    expect(text.stdout).toContain(`Needs you:\n- asker asks — worker asker wrote: ${JSON.stringify(QUESTION)}`);
    expect(text.stdout).toContain('Recently landed:\n  Nothing landed recently.');
  });

  it('audience tells dispatched, blocked, answered, idle per worker, once each, in order', async () => {
    expect((await w.hand(['keys', 'asker', 'enter', '--json'])).code).toBe(0);
    expect((await w.hand(['wait', 'asker', '--until', 'settled', '--timeout', '30s', '--json'])).code).toBe(0);
    const r = await w.hand(['audience', '--since', String(t0), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(kinds(r.json, 'asker')).toEqual(['dispatched', 'blocked', 'answered', 'idle']);
    const survey = await w.hand(['survey', '--json']);
    expect(survey.json.needsYou).toEqual([expect.objectContaining({ id: 'asker', kind: 'no-report' })]);
  });

  it('audience reads the same after a daemon restart (the journal is the source), with no repeated lines', async () => {
    const before = (await w.hand(['audience', '--since', String(t0), '--json'])).json;
    expect((await w.hand(['daemon', 'stop', '--json'])).code).toBe(0);
    const after = await w.hand(['audience', '--since', String(t0), '--json']); // starts the daemon again
    expect(after.code, after.stderr).toBe(0);
    expect(kinds(after.json, 'asker')).toEqual(kinds(before, 'asker'));
    expect((await w.hand(['status', 'asker', '--json'])).json[0]).toMatchObject({ live: true });
  });

  it('stop is told as stopped; newest worker last; without --since audience starts at the recorded session start', async () => {
    writeFileSync(join(w.home, 'hand-session.json'), JSON.stringify({ startedAt: Date.now() }));
    const brief = w.brief('second', 'Say hello.');
    expect((await w.hand(['dispatch', 'second', '--repo', w.repo, '--brief', brief, '--agent', 'mock', '--json'])).code).toBe(0);
    expect((await w.hand(['wait', 'second', '--until', 'settled', '--timeout', '30s', '--json'])).code).toBe(0);
    expect((await w.hand(['stop', 'second', '--json'])).code).toBe(0);
    const sinceSession = await w.hand(['audience', '--json']);
    expect(sinceSession.code, sinceSession.stderr).toBe(0);
    expect(sinceSession.json.workers.map((x: any) => x.id)).toEqual(['second']);
    expect(kinds(sinceSession.json, 'second')).toEqual(['dispatched', 'idle', 'stopped']);
    const all = await w.hand(['audience', '--since', String(t0), '--json']);
    expect(all.json.workers.map((x: any) => x.id)).toEqual(['asker', 'second']);
    const text = await w.hand(['audience', '--since', String(t0)]);
    expect(text.stdout).toMatch(/asker:\n\s+\d\d:\d\d:\d\d dispatched/);
    const bad = await w.hand(['audience', '--since', 'yesterday-ish', '--json']);
    expect(bad.code).toBe(2);
    expect(bad.json.error.code).toBe('bad-since');
  });
});
