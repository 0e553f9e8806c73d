/**
 * Away mode end to end (real daemon, tmux, mock agent, git): while away, what needs the person —
 * a blocked worker — is pushed at once with its question, once; what does not — a settle, a
 * report, a yolo landing — goes only to the journal. Landing a worker dispatched for a backlog
 * item marks the item done. `hand afk off` gives the account.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { annexYoloShop, closeServer, handOk, listenWebhook, serverPort, useCliWorld } from '../helpers/cli-world.ts';
import { waitFor } from '../helpers/temp.ts';

const makeWorld = useCliWorld();
let server: Server | null = null;
afterEach(async () => {
  if (server) await closeServer(server);
  server = null;
});

describe('away mode', () => {
  it('pushes a blocked worker once with its question, journals the landing, and closes the item it landed', async () => {
    const w = await makeWorld('work-away');
    const ok = handOk(w);
    const hits: any[] = [];
    server = await listenWebhook(hits);
    const port = serverPort(server);

    await annexYoloShop(ok, w);
    await ok(['notify', 'add', 'webhook', `http://127.0.0.1:${port}/hook`, '--allow-loopback']);
    await ok(['backlog', 'add', 'feat', '--project', 'shop', 'Add the feature']);
    const d = await ok(['dispatch', '--item', 'feat', '--agent', 'mock']);
    expect((await w.hand(['wait', 'feat', '--until', 'settled', '--timeout', '30s'])).code).toBe(0);
    await ok(['afk', 'on', '--note', 'school run']);

    // Work lands only from a commit; the worker's commit is made in its worktree.
    writeFileSync(join(d.worktree, 'feature.txt'), 'feature\n');
    execFileSync('git', ['-C', d.worktree, 'add', 'feature.txt'], { env: w.env });
    execFileSync('git', ['-C', d.worktree, 'commit', '-q', '-m', 'Add the feature file'], { env: w.env });

    await ok(['send', 'feat', 'MODE:ask']);
    const blocked = await w.hand(['wait', 'feat', '--until', 'blocked', '--timeout', '30s', '--json']);
    expect(blocked.json.blockedReason).toBe('question');
    await waitFor(() => hits.length === 1, { what: 'the blocked notification' });
    expect(hits[0]).toMatchObject({ worker: 'feat', project: 'shop', condition: 'blocked', command: 'hand read feat' });
    expect(hits[0].reason).toMatch(/blocked on question/);
    await ok(['keys', 'feat', 'enter']);
    expect((await w.hand(['wait', 'feat', '--until', 'settled', '--timeout', '30s'])).code).toBe(0);
    await ok(['send', 'feat', `MODE:report ${d.reportPath}`]);
    await waitFor(async () => (await ok(['status', 'feat']))[0].stage === 'done', { what: 'the worker done with its report', timeoutMs: 30_000 });

    const land = await ok(['land', 'feat'], 90_000);
    expect(land).toMatchObject({ gate: 'skipped-yolo', stage: 'landed' });
    await waitFor(async () => (await ok(['backlog', 'show', 'feat'])).state === 'done', { what: 'the item closed by the landing' });
    expect((await ok(['backlog', 'show', 'feat'])).note).toBe('landed by worker feat');

    const journal = await ok(['journal']);
    const kinds = journal.map((e: any) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['away-on', 'blocked', 'done', 'landed']));
    expect(journal.find((e: any) => e.kind === 'blocked')).toMatchObject({ worker: 'feat' });

    expect((await ok(['journal', '--since', '1h'])).map((e: any) => e.seq)).toEqual(journal.map((e: any) => e.seq));
    expect((await ok(['journal', '--since', '2099-01-01T00:00:00Z']))).toEqual([]);
    const bad = await w.hand(['journal', '--since', 'yesterday-ish', '--json']);
    expect(bad.code).toBe(2);

    const back = await ok(['afk', 'off']);
    expect(back.account.landed).toEqual([expect.objectContaining({ worker: 'feat' })]);
    expect(back.account.waitingOnYou).toEqual([]); // it is no longer blocked
    // Only what needed the person was pushed: the block, once. Not the settle, the report or the landing.
    expect(hits.map((h) => h.condition)).toEqual(['blocked']);
  }, 300_000);
});
