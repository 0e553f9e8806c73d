/**
 * A resume re-attaching its restored workers asks, for each, whether the tmux server its pane was
 * made on is gone for certain (a reboot, a killed server: the worker is lost). 500 workers share one
 * server, and each question is three /proc reads (issue 46): a server not found gone is asked once a
 * pass; a gone one is asked for each of its workers (the words name the worker), each of them lost.
 */
import { describe, expect, it } from 'vitest';
import { reattachPanes, type ReattachDeps } from '../../actors/restore.ts';
import { newRecord, type WorkerRecord } from '../../actors/worker-record.ts';
import type { WorkerIntent } from '../../persistence/types.ts';
import type { TerminalHost } from '../../io/terminal/types.ts';
import type { WorkerEvent } from '../../machines/worker.types.ts';
import { intent } from './helpers/harness.ts';

/** Restored workers on `servers` (id → its pane's server), a host whose every pane is alive, and what the pass did. */
function resume(servers: Record<string, string>, serverGone: (i: WorkerIntent) => string | null) {
  const records = new Map<string, WorkerRecord>(Object.entries(servers).map(([id, paneServer]) => [id, newRecord(intent(id, { paneServer }))]));
  const host = { attach: async (paneId: string) => ({ paneId, alive: true }), survivesRestart: true } as unknown as TerminalHost;
  const panes = [...records.keys()].map((id, k) => ({ id, paneId: `%${k}` }));
  const routed: [string, WorkerEvent['type']][] = [];
  const attached: string[] = [];
  const deps: ReattachDeps = {
    hostFor: () => host,
    clock: { now: () => 5 } as never,
    recordOf: (id) => records.get(id)!,
    route: (id, e) => void routed.push([id, e.type]),
    attachFeed: (id) => void attached.push(id),
    serverGone,
  };
  return { pass: () => reattachPanes(panes, deps), routed, attached };
}

describe('a resume asks whether a tmux server is gone', () => {
  it('once per running server, and for each worker of a gone one', async () => {
    const servers: Record<string, string> = {};
    for (let i = 0; i < 40; i++) servers[`up${i}`] = '100.5';
    for (let i = 0; i < 3; i++) servers[`down${i}`] = '200.7';
    const asked: string[] = [];
    const r = resume(servers, (i) => {
      asked.push(i.id);
      return i.paneServer === '200.7' ? `its tmux server is gone (hand resume ${i.id})` : null;
    });
    await r.pass();
    expect(asked.filter((id) => id.startsWith('up'))).toHaveLength(1);
    expect(asked.filter((id) => id.startsWith('down')).sort()).toEqual(['down0', 'down1', 'down2']);
    expect(r.routed.sort()).toEqual([['down0', 'LOST'], ['down1', 'LOST'], ['down2', 'LOST']]);
    expect(r.attached).toHaveLength(40);
  });

  it('asks again in the next pass (a server may have gone since)', async () => {
    let asked = 0;
    const r = resume({ w: '100.5' }, () => (asked++, null));
    await r.pass();
    await r.pass();
    expect(asked).toBe(2);
  });
});
