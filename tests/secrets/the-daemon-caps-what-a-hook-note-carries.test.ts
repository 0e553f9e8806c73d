/**
 * Rule: what a worker's hook sends is a stranger's input, capped at the daemon's own edge (issue 37
 * item 2). `hand hook` cuts a payload at 1 MiB and each field it keeps, but anything can reach the
 * socket or the queue file: the daemon keeps only the known fields, each cut to its cap; the queue
 * is read without following a link, up to its cap; and the transcript a note names is read only
 * as a regular file of this user's, never through a link or a FIFO.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookQueuePath, NOTE_FIELD_CAPS, parseNote, type HookNote } from '../../contract/hook-note.ts';
import { drainHookQueue, HOOK_QUEUE_CAP } from '../../daemon/fleet/hook-handlers.ts';
import { hookCapability } from '../../io/agent/claude/hook-capability.ts';
import { readTranscriptUsage } from '../../io/agent/claude/transcript-usage.ts';
import { makeTempDir } from '../helpers/temp.ts';

let tmp: ReturnType<typeof makeTempDir> | undefined;
afterEach(() => tmp?.cleanup());

const USAGE_LINE = JSON.stringify({ message: { id: 'm1', usage: { input_tokens: 5, output_tokens: 7 } } });

describe('the daemon caps what a hook note carries', () => {
  it('keeps only the known fields of a note, each cut to its cap, whatever the sender did', () => {
    const huge = 'x'.repeat(5 << 20);
    const note = parseNote({ id: `w1${huge}`, event: `Notification${huge}`, at: 1, message: huge, notificationType: huge, transcriptPath: huge, sessionId: huge, cap: huge, extra: { deep: [[[huge]]] } });
    expect(note).not.toBeNull();
    for (const [k, cap] of Object.entries(NOTE_FIELD_CAPS)) expect((note as unknown as Record<string, string>)[k]!.length, k).toBe(cap);
    expect(Object.keys(note!).sort()).toEqual(['at', 'cap', 'event', 'id', 'message', 'notificationType', 'sessionId', 'transcriptPath']);
    expect(JSON.stringify(note).length).toBeLessThan(10_000);
  });

  it('a queue file that is a link is not read through (the notes it points at are not applied)', async () => {
    tmp = makeTempDir('hook-queue-link');
    const home = tmp.path;
    const elsewhere = join(home, 'elsewhere.jsonl');
    const note: HookNote = { id: 'w1', event: 'Stop', at: 1, cap: hookCapability(home, 'w1') };
    writeFileSync(elsewhere, `${JSON.stringify(note)}\n`);
    symlinkSync(elsewhere, hookQueuePath(home));
    const applied: HookNote[] = [];
    const logs: string[] = [];
    const r = await drainHookQueue(home, { hook: async (n) => (applied.push(n), { id: n.id } as never) }, (_o, msg) => logs.push(msg ?? ''));
    expect(applied).toEqual([]);
    expect(r).toEqual({ applied: 0, dropped: 0 });
    expect(logs).toContain('hook queue not read');
  });

  it('a queue over its cap is read only up to the cap', async () => {
    tmp = makeTempDir('hook-queue-cap');
    const home = tmp.path;
    const line = `${JSON.stringify({ id: 'w1', event: 'Stop', at: 1, cap: hookCapability(home, 'w1'), message: 'm'.repeat(1000) })}\n`;
    const count = Math.ceil((HOOK_QUEUE_CAP * 2) / line.length);
    writeFileSync(hookQueuePath(home), line.repeat(count));
    let applied = 0;
    const r = await drainHookQueue(home, { hook: async () => (applied++, { id: 'w1' } as never) }, () => undefined);
    expect(r.applied).toBe(applied);
    expect(applied).toBeLessThanOrEqual(Math.ceil(HOOK_QUEUE_CAP / line.length));
    expect(applied).toBeGreaterThan(0);
  });

  it('the transcript a note names is read only as a regular file: a link or a FIFO gives no usage, at once', async () => {
    tmp = makeTempDir('hook-transcript');
    const d = tmp.path;
    mkdirSync(join(d, 'p'));
    const real = join(d, 'p', 'session.jsonl');
    writeFileSync(real, `${USAGE_LINE}\n`);
    expect(await readTranscriptUsage(real)).toMatchObject({ input: 5, output: 7, messages: 1 });
    symlinkSync(real, join(d, 'p', 'linked.jsonl'));
    expect(await readTranscriptUsage(join(d, 'p', 'linked.jsonl'))).toBeNull();
    execFileSync('mkfifo', [join(d, 'p', 'fifo.jsonl')]);
    const started = Date.now();
    expect(await readTranscriptUsage(join(d, 'p', 'fifo.jsonl'))).toBeNull();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
